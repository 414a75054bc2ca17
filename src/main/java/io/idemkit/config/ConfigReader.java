package io.idemkit.config;

import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.store.mongo.MongoStoreSettings;
import java.lang.System.Logger.Level;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;

/**
 * Reads and validates the whole {@code idemkit.*} configuration in one pass, collecting every
 * problem rather than stopping at the first, so that one failed deployment shows them all.
 */
public final class ConfigReader {

    /** MongoDB refuses documents over 16 MiB; leave room for the rest of the record. */
    static final int MAX_STORABLE_BODY_BYTES = 15 * 1024 * 1024;

    private static final System.Logger LOG = System.getLogger(ConfigReader.class.getName());
    private static final Set<String> KNOWN_KEYS = knownKeys();

    private final Config config;
    private final List<String> problems = new ArrayList<>();

    private ConfigReader(Config config) {
        this.config = config;
    }

    /**
     * @param config the application's MicroProfile Config
     * @return the validated configuration
     * @throws InvalidConfigurationException listing every broken rule
     */
    public static IdemkitConfig read(Config config) {
        return new ConfigReader(config).read();
    }

    private IdemkitConfig read() {
        warnAboutUnknownKeys();
        StoreKind store = enumValue(ConfigKeys.STORE, ConfigKeys.STORE_DEFAULT, StoreKind.class);
        Duration leaseTtl = ttl(ConfigKeys.LEASE_TTL, ConfigKeys.LEASE_TTL_DEFAULT);
        Duration completedTtl = ttl(ConfigKeys.COMPLETED_TTL, ConfigKeys.COMPLETED_TTL_DEFAULT);
        Duration waitTimeout =
                notNegative(ConfigKeys.WAIT_TIMEOUT, ConfigKeys.WAIT_TIMEOUT_DEFAULT);
        StorageErrorMode onStorageError =
                enumValue(
                        ConfigKeys.ON_STORAGE_ERROR,
                        ConfigKeys.ON_STORAGE_ERROR_DEFAULT,
                        StorageErrorMode.class);
        CacheableStatuses cacheable =
                value(
                        ConfigKeys.CACHEABLE_STATUS,
                        ConfigKeys.CACHEABLE_STATUS_DEFAULT,
                        CacheableStatuses::parse);
        CompatMode compat =
                enumValue(ConfigKeys.COMPAT_MODE, ConfigKeys.COMPAT_MODE_DEFAULT, CompatMode.class);
        ScopeMode scopeMode =
                enumValue(ConfigKeys.SCOPE_MODE, ConfigKeys.SCOPE_MODE_DEFAULT, ScopeMode.class);
        ScopeSource scopeSource =
                enumValue(
                        ConfigKeys.SCOPE_SOURCE,
                        ConfigKeys.SCOPE_SOURCE_DEFAULT,
                        ScopeSource.class);
        boolean requireKey = bool(ConfigKeys.REQUIRE_KEY, ConfigKeys.REQUIRE_KEY_DEFAULT);
        int maxBody =
                wholeNumber(
                        ConfigKeys.MAX_BODY_BYTES,
                        ConfigKeys.MAX_BODY_BYTES_DEFAULT,
                        MAX_STORABLE_BODY_BYTES);
        int maxRequest =
                wholeNumber(
                        ConfigKeys.MAX_REQUEST_BYTES,
                        ConfigKeys.MAX_REQUEST_BYTES_DEFAULT,
                        Integer.MAX_VALUE - 8);
        Set<String> stored = headers(ConfigKeys.HEADERS_STORED, ConfigKeys.HEADERS_STORED_DEFAULT);
        Set<String> neverStored =
                headers(ConfigKeys.HEADERS_NEVER_STORED, ConfigKeys.HEADERS_NEVER_STORED_DEFAULT);
        boolean interrupt =
                bool(ConfigKeys.HEARTBEAT_INTERRUPT, ConfigKeys.HEARTBEAT_INTERRUPT_DEFAULT);
        boolean httpHeartbeat = bool(ConfigKeys.HTTP_HEARTBEAT, ConfigKeys.HTTP_HEARTBEAT_DEFAULT);
        int memoryMaxSize =
                wholeNumber(
                        ConfigKeys.MEMORY_MAX_SIZE,
                        ConfigKeys.MEMORY_MAX_SIZE_DEFAULT,
                        Integer.MAX_VALUE);
        Duration sweep =
                positive(
                        ConfigKeys.MEMORY_SWEEP_INTERVAL, ConfigKeys.MEMORY_SWEEP_INTERVAL_DEFAULT);
        MongoStoreSettings mongo = mongo();

        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        return new IdemkitConfig(
                store,
                new OperationPolicy(leaseTtl, completedTtl, waitTimeout, onStorageError, cacheable),
                compat,
                scopeMode,
                scopeSource,
                requireKey,
                maxBody,
                maxRequest,
                stored,
                neverStored,
                interrupt,
                httpHeartbeat,
                memoryMaxSize,
                sweep,
                mongo);
    }

    private MongoStoreSettings mongo() {
        // MongoStoreSettings validates each component in the house format; applying one key at a
        // time reports every broken one, not just the first.
        MongoStoreSettings settings =
                new MongoStoreSettings(
                        null,
                        ConfigKeys.MONGO_DATABASE_DEFAULT,
                        ConfigKeys.MONGO_COLLECTION_DEFAULT,
                        DurationFormat.parse(ConfigKeys.MONGO_TIMEOUT_DEFAULT),
                        null,
                        DurationFormat.parse(ConfigKeys.MONGO_LEASE_GRACE_DEFAULT));
        settings = mongoKey(settings, ConfigKeys.MONGO_URI, MongoStoreSettings::withUri);
        settings = mongoKey(settings, ConfigKeys.MONGO_DATABASE, MongoStoreSettings::withDatabase);
        settings =
                mongoKey(settings, ConfigKeys.MONGO_COLLECTION, MongoStoreSettings::withCollection);
        settings =
                mongoKey(
                        settings,
                        ConfigKeys.MONGO_WRITE_CONCERN,
                        MongoStoreSettings::withWriteConcern);
        Duration timeout = positive(ConfigKeys.MONGO_TIMEOUT, ConfigKeys.MONGO_TIMEOUT_DEFAULT);
        if (timeout != null) {
            settings = mongoValue(settings, timeout, MongoStoreSettings::withTimeout);
        }
        Duration grace =
                notNegative(ConfigKeys.MONGO_LEASE_GRACE, ConfigKeys.MONGO_LEASE_GRACE_DEFAULT);
        if (grace != null) {
            settings = mongoValue(settings, grace, MongoStoreSettings::withLeaseGrace);
        }
        return settings;
    }

    private MongoStoreSettings mongoKey(
            MongoStoreSettings settings,
            String key,
            BiFunction<MongoStoreSettings, String, MongoStoreSettings> apply) {
        return config.getOptionalValue(key, String.class)
                .map(text -> mongoValue(settings, text.strip(), apply))
                .orElse(settings);
    }

    private <T> MongoStoreSettings mongoValue(
            MongoStoreSettings settings,
            T value,
            BiFunction<MongoStoreSettings, T, MongoStoreSettings> apply) {
        try {
            return apply.apply(settings, value);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return settings;
        }
    }

    private <T> T value(String key, String defaultText, Function<String, T> parse) {
        String text = config.getOptionalValue(key, String.class).orElse(defaultText);
        return checked(key, text, parse);
    }

    private <T> T checked(String key, String text, Function<String, T> parse) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            problems.add("Invalid " + key + "=" + text + ": " + e.getMessage());
            return null;
        }
    }

    private Duration positive(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parsePositive);
    }

    private Duration ttl(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parseTtl);
    }

    private Duration notNegative(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parseNotNegative);
    }

    private boolean bool(String key, String defaultText) {
        Boolean b =
                value(
                        key,
                        defaultText,
                        text ->
                                switch (text.strip().toLowerCase(Locale.ROOT)) {
                                    case "true" -> Boolean.TRUE;
                                    case "false" -> Boolean.FALSE;
                                    default ->
                                            throw new IllegalArgumentException(
                                                    "must be true or false");
                                });
        return Boolean.TRUE.equals(b);
    }

    private int wholeNumber(String key, String defaultText, int max) {
        Integer n = value(key, defaultText, text -> positiveInt(text, max));
        return n == null ? 0 : n;
    }

    private static int positiveInt(String text, int max) {
        long n;
        try {
            n = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number from 1 to " + max);
        }
        if (n < 1 || n > max) {
            throw new IllegalArgumentException("must be a whole number from 1 to " + max);
        }
        return (int) n;
    }

    private <E extends Enum<E>> E enumValue(String key, String defaultText, Class<E> type) {
        return value(
                key,
                defaultText,
                text -> {
                    String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
                    List<String> allowed = new ArrayList<>();
                    for (E constant : type.getEnumConstants()) {
                        if (constant.name().equals(wanted)) {
                            return constant;
                        }
                        allowed.add(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
                    }
                    throw new IllegalArgumentException(
                            "must be one of " + String.join(", ", allowed));
                });
    }

    private Set<String> headers(String key, String defaultText) {
        Set<String> names =
                value(
                        key,
                        defaultText,
                        text -> {
                            Set<String> set = new LinkedHashSet<>();
                            for (String raw : text.split(",", -1)) {
                                String name = raw.strip().toLowerCase(Locale.ROOT);
                                if (name.isEmpty()) {
                                    continue;
                                }
                                if (!name.matches("[!#$%&'*+.^_`|~0-9a-z-]+")) {
                                    throw new IllegalArgumentException(
                                            "'" + raw.strip() + "' is not a header name");
                                }
                                set.add(name);
                            }
                            return set;
                        });
        return names == null ? Set.of() : names;
    }

    private void warnAboutUnknownKeys() {
        Set<String> unknown = new TreeSet<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(ConfigKeys.PREFIX)
                    && !KNOWN_KEYS.contains(name)
                    && !isReadUnderAKnownKey(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "Unknown configuration keys are ignored: "
                            + unknown
                            + ". Check the spelling against the idemkit README's configuration"
                            + " table.");
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
        for (String key : KNOWN_KEYS) {
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

    private static Set<String> knownKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field field : ConfigKeys.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && field.getType() == String.class
                    && !field.getName().endsWith("_DEFAULT")
                    && !field.getName().equals("PREFIX")) {
                try {
                    keys.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Set.copyOf(keys);
    }
}
