package io.idemkit.config;

import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.CompletionMode;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Reads and validates the keys of {@link ConfigKeys}: the engine's, and the surfaces' defaults that
 * the per-method policy merges; collecting every problem rather than stopping at the first, so that
 * one failed deployment shows them all. A wing's own keys (a store's {@code idemkit.mongo.*}, the
 * HTTP surface's {@code idemkit.http.*}) are read by its {@link ConfigSection} through the same
 * {@link ConfigValues}, before this reader, so that the one exception lists theirs too; the
 * unknown-key check here knows them from there.
 */
public final class ConfigReader {

    /** MongoDB refuses documents over 16 MiB; leave room for the rest of the record. */
    static final int MAX_STORABLE_BODY_BYTES = 15 * 1024 * 1024;

    private static final System.Logger LOG = System.getLogger(ConfigReader.class.getName());

    private final Config config;
    private final ConfigValues values;

    private ConfigReader(ConfigValues values) {
        this.config = values.config();
        this.values = values;
    }

    /**
     * @param config the application's MicroProfile Config
     * @return the validated configuration
     * @throws InvalidConfigurationException listing every broken rule
     */
    public static IdemkitConfig read(Config config) {
        return read(new ConfigValues(config));
    }

    /**
     * @param values the reading so far, with the problems other sections found
     * @return the validated configuration
     * @throws InvalidConfigurationException listing every broken rule, this reader's and those
     *     recorded before
     */
    public static IdemkitConfig read(ConfigValues values) {
        return new ConfigReader(values).read();
    }

    private IdemkitConfig read() {
        warnAboutUnknownKeys();
        // Which names exist is the stores' to say (StoreSelection); here, only a name.
        String store =
                values.value(ConfigKeys.STORE, ConfigKeys.STORE_DEFAULT, ConfigReader::storeName);
        Duration leaseTtl = values.ttl(ConfigKeys.LEASE_TTL, ConfigKeys.LEASE_TTL_DEFAULT);
        Duration completedTtl =
                values.ttl(ConfigKeys.COMPLETED_TTL, ConfigKeys.COMPLETED_TTL_DEFAULT);
        Duration waitTimeout =
                values.notNegative(ConfigKeys.WAIT_TIMEOUT, ConfigKeys.WAIT_TIMEOUT_DEFAULT);
        StorageErrorMode onStorageError =
                values.enumValue(
                        ConfigKeys.ON_STORAGE_ERROR,
                        ConfigKeys.ON_STORAGE_ERROR_DEFAULT,
                        StorageErrorMode.class);
        CacheableStatuses cacheable =
                values.value(
                        ConfigKeys.CACHEABLE_STATUS,
                        ConfigKeys.CACHEABLE_STATUS_DEFAULT,
                        CacheableStatuses::parse);
        ScopeMode scopeMode =
                values.enumValue(
                        ConfigKeys.SCOPE_MODE, ConfigKeys.SCOPE_MODE_DEFAULT, ScopeMode.class);
        ScopeSource scopeSource =
                values.enumValue(
                        ConfigKeys.SCOPE_SOURCE,
                        ConfigKeys.SCOPE_SOURCE_DEFAULT,
                        ScopeSource.class);
        int maxBody =
                values.wholeNumber(
                        ConfigKeys.MAX_BODY_BYTES,
                        ConfigKeys.MAX_BODY_BYTES_DEFAULT,
                        MAX_STORABLE_BODY_BYTES);
        boolean interrupt =
                values.bool(ConfigKeys.HEARTBEAT_INTERRUPT, ConfigKeys.HEARTBEAT_INTERRUPT_DEFAULT);
        int maxWaitersPerKey =
                values.wholeNumber(
                        ConfigKeys.MAX_WAITERS_PER_KEY,
                        ConfigKeys.MAX_WAITERS_PER_KEY_DEFAULT,
                        Integer.MAX_VALUE);
        String keyProperty =
                values.value(
                        ConfigKeys.MESSAGE_KEY_PROPERTY,
                        ConfigKeys.MESSAGE_KEY_PROPERTY_DEFAULT,
                        MessagePolicy::propertyName);
        Integer maxAttempts =
                values.value(
                        ConfigKeys.MESSAGE_MAX_ATTEMPTS,
                        ConfigKeys.MESSAGE_MAX_ATTEMPTS_DEFAULT,
                        MessagePolicy::maxAttempts);
        Boolean fingerprintBody =
                values.value(
                        ConfigKeys.MESSAGE_FINGERPRINT,
                        ConfigKeys.MESSAGE_FINGERPRINT_DEFAULT,
                        MessagePolicy::fingerprintBody);
        MessageKeySource keySource =
                values.value(
                        ConfigKeys.MESSAGE_KEY_SOURCE,
                        ConfigKeys.MESSAGE_KEY_SOURCE_DEFAULT,
                        MessageKeySource::of);
        Optional<Duration> transactionTimeout =
                values.value(
                        ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT,
                        ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT_DEFAULT,
                        text ->
                                text.isBlank()
                                        ? Optional.empty()
                                        : Optional.of(DurationFormat.parseNotNegative(text)));
        ExhaustedRecords exhausted =
                values.enumValue(
                        ConfigKeys.MESSAGE_EXHAUSTED,
                        ConfigKeys.MESSAGE_EXHAUSTED_DEFAULT,
                        ExhaustedRecords.class);
        ProcessorDuplicates processorDuplicates =
                values.enumValue(
                        ConfigKeys.MESSAGE_PROCESSOR_DUPLICATES,
                        ConfigKeys.MESSAGE_PROCESSOR_DUPLICATES_DEFAULT,
                        ProcessorDuplicates.class);
        DerivedKeyMode derivedKeys =
                values.enumValue(
                        ConfigKeys.METHOD_DERIVED_KEY,
                        ConfigKeys.METHOD_DERIVED_KEY_DEFAULT,
                        DerivedKeyMode.class);
        String keyHeader =
                values.value(
                        ConfigKeys.KEY_HEADER,
                        ConfigKeys.KEY_HEADER_DEFAULT,
                        text -> {
                            HttpKeyPolicy.check(HttpKeyPolicy.KEY_HEADER, text);
                            return text.strip();
                        });
        List<String> fingerprintHeaders =
                values.value(
                        ConfigKeys.FINGERPRINT_HEADERS,
                        ConfigKeys.FINGERPRINT_HEADERS_DEFAULT,
                        HttpKeyPolicy::headerList);
        List<String> fingerprintFields =
                values.value(
                        ConfigKeys.FINGERPRINT_FIELDS,
                        ConfigKeys.FINGERPRINT_FIELDS_DEFAULT,
                        // Unset (or empty, which MicroProfile Config reads as unset): the body.
                        text -> text.isBlank() ? List.of() : HttpKeyPolicy.fieldList(text));
        Optional<String> keyExtractor =
                values.value(
                        ConfigKeys.KEY_EXTRACTOR,
                        ConfigKeys.KEY_EXTRACTOR_DEFAULT,
                        text -> {
                            // HTTP's alone: an Incoming method names its extractor itself.
                            Optional<String> name =
                                    Optional.of(text.strip()).filter(n -> !n.isEmpty());
                            name.ifPresent(n -> BeanClassName.check(n, "IdempotencyKeyExtractor"));
                            return name;
                        });
        if (keyExtractor != null
                && keyExtractor.isPresent()
                && values.text(ConfigKeys.KEY_HEADER).isPresent()) {
            values.problem(
                    "Invalid "
                            + ConfigKeys.KEY_EXTRACTOR
                            + " with "
                            + ConfigKeys.KEY_HEADER
                            + ": both say where the key comes from; keep one");
        }
        CompletionMode completion =
                values.value(
                        ConfigKeys.COMPLETION,
                        ConfigKeys.COMPLETION_DEFAULT,
                        CompletionMode::parse);
        values.throwIfBroken();
        return new IdemkitConfig(
                store,
                new OperationPolicy(leaseTtl, completedTtl, waitTimeout, onStorageError, cacheable)
                        .withCompletion(completion),
                scopeMode,
                scopeSource,
                maxBody,
                interrupt,
                maxWaitersPerKey,
                new MessagePolicy(keyProperty, maxAttempts, fingerprintBody, keySource),
                transactionTimeout,
                exhausted,
                processorDuplicates,
                derivedKeys,
                new HttpKeyPolicy(keyHeader, fingerprintHeaders, keyExtractor, fingerprintFields));
    }

    /**
     * @param text a value of {@code idemkit.store}
     * @return the store's name as the stores declare theirs: without surrounding white space, in
     *     lower case
     */
    public static String storeName(String text) {
        return text.strip().toLowerCase(Locale.ROOT);
    }

    private void warnAboutUnknownKeys() {
        Set<String> unknown = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(ConfigKeys.PREFIX)
                    && !values.knownKeys().contains(name)
                    && !isReadUnderAKnownKey(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "Unknown configuration keys are ignored: "
                            + unknown
                            + ". Check the spelling against the configuration table of idemkit's"
                            + " docs/configuration.md.");
        }
    }

    /**
     * Whether {@code name} is another spelling of a known key that the library reads all the same.
     * Some MicroProfile Config implementations list an environment variable under a name of their
     * own making ({@code IDEMKIT_LEASE_TTL} as {@code idemkit.lease.ttl}), while its value is found
     * under the real key: the same value from the same source. A typo in a properties file ({@code
     * idemkit.lease_ttl}) is not found under the real key, and stays unknown.
     */
    private boolean isReadUnderAKnownKey(String name) {
        String environmentName = environmentName(name);
        for (String key : values.knownKeys()) {
            if (environmentName(key).equals(environmentName)) {
                ConfigValue odd = config.getConfigValue(name);
                ConfigValue known = config.getConfigValue(key);
                return known.getValue() != null
                        && known.getValue().equals(odd.getValue())
                        && Objects.equals(known.getSourceName(), odd.getSourceName());
            }
        }
        return false;
    }

    /** A key as an environment variable names it (MicroProfile Config's mapping). */
    private static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
}
