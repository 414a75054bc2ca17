package io.idemkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.http.HttpSettings;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.MemoryStoreSettings;
import io.idemkit.store.mongo.MongoKeys;
import io.idemkit.store.mongo.MongoSettingsReader;
import io.idemkit.store.mongo.MongoStoreSettings;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

/** Every key's default and validation rule (C8). */
class ConfigReaderTest {

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
    }

    private static boolean cacheable(IdemkitConfig config, int status) {
        return config.defaults()
                .cacheable()
                .isCacheable(new StoredResult(status, List.of(), new byte[0]));
    }

    /** Reads as the extension does: the stores' keys first, in the same reading. */
    private static IdemkitConfig read(Map<String, String> properties) {
        ConfigValues values = new ConfigValues(config(properties));
        MongoSettingsReader.read(values);
        MemoryStoreSettings.read(values);
        HttpSettings.read(values);
        return ConfigReader.read(values);
    }

    private static MongoStoreSettings mongo(Map<String, String> properties) {
        ConfigValues values = new ConfigValues(config(properties));
        MongoStoreSettings mongo = MongoSettingsReader.read(values);
        values.throwIfBroken();
        return mongo;
    }

    @Test
    void noKeys_giveTheDocumentedDefaults() {
        IdemkitConfig c = read(Map.of());

        assertThat(c.store()).isEqualTo("auto");
        assertThat(c.defaults().leaseTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.defaults().completedTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(c.defaults().waitTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.defaults().onStorageError()).isEqualTo(StorageErrorMode.FAIL_CLOSED);
        assertThat(cacheable(c, 200)).isTrue();
        assertThat(cacheable(c, 299)).isTrue();
        assertThat(cacheable(c, 404)).isFalse();
        assertThat(cacheable(c, 500)).isFalse();
        assertThat(c.scopeMode()).isEqualTo(ScopeMode.WARN);
        assertThat(c.scopeSource()).isEqualTo(ScopeSource.AUTO);
        assertThat(c.maxBodyBytes()).isEqualTo(1024 * 1024);
        assertThat(c.heartbeatInterrupt()).isTrue();
        assertThat(c.maxWaitersPerKey()).isEqualTo(64);
        assertThat(c.messageDefaults())
                .isEqualTo(
                        new MessagePolicy("IdempotencyKey", 3, false, MessageKeySource.PROPERTY));
        assertThat(c.messageTransactionTimeout()).as("unset: the server's is read").isEmpty();
        MongoStoreSettings m = mongo(Map.of());
        assertThat(m.uri()).isNull();
        assertThat(m.database()).isEqualTo("idemkit");
        assertThat(m.collection()).isEqualTo("idemkit_records");
        assertThat(m.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(m.writeConcern()).isNull();
        assertThat(m.leaseGrace()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void everyKey_isReadFromConfig() {
        IdemkitConfig c =
                read(
                        Map.ofEntries(
                                Map.entry("idemkit.store", "memory"),
                                Map.entry("idemkit.scope-mode", "single-tenant"),
                                Map.entry("idemkit.scope-source", "principal"),
                                Map.entry("idemkit.max-body-bytes", "2048"),
                                Map.entry("idemkit.cacheable-status", "2xx, 409"),
                                Map.entry("idemkit.heartbeat.interrupt", "false")));

        assertThat(c.store()).isEqualTo("memory");
        assertThat(c.scopeMode()).isEqualTo(ScopeMode.SINGLE_TENANT);
        assertThat(c.scopeSource()).isEqualTo(ScopeSource.PRINCIPAL);
        assertThat(c.maxBodyBytes()).isEqualTo(2048);
        assertThat(cacheable(c, 409)).isTrue();
        assertThat(c.heartbeatInterrupt()).isFalse();
    }

    @Test
    void mongoDefaultsOfTheKeys_agreeWithTheStoresOwnDefaults() {
        MongoStoreSettings defaults = MongoStoreSettings.defaults();

        assertThat(DurationFormat.parse(MongoKeys.TIMEOUT_DEFAULT)).isEqualTo(defaults.timeout());
        assertThat(DurationFormat.parse(MongoKeys.LEASE_GRACE_DEFAULT))
                .isEqualTo(defaults.leaseGrace());
        assertThat(mongo(Map.of())).isEqualTo(defaults);
        assertThat(defaults.database()).isEqualTo(MongoKeys.DATABASE_DEFAULT);
        assertThat(defaults.collection()).isEqualTo(MongoKeys.COLLECTION_DEFAULT);
    }

    @Test
    void leaseOrRetentionNoStoreCanHold_failsTheDeployment() {
        assertThatThrownBy(
                        () ->
                                read(
                                        Map.of(
                                                "idemkit.lease-ttl", "40000d",
                                                "idemkit.completed-ttl", "36526d")))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .containsExactlyInAnyOrder(
                                                "Invalid idemkit.lease-ttl=40000d: must be at most"
                                                        + " 36525d (100 years)",
                                                "Invalid idemkit.completed-ttl=36526d: must be at"
                                                        + " most 36525d (100 years)"));
    }

    @Test
    void mongoLeaseGraceOfZero_isADeploymentErrorThatSaysWhy() {
        assertThatThrownBy(() -> mongo(Map.of("idemkit.mongo.lease-grace", "0s")))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .singleElement()
                                        .asString()
                                        .startsWith(
                                                "Invalid idemkit.mongo.lease-grace=0s: must be at"
                                                        + " least 5s: the TTL monitor deletes a"
                                                        + " record on the shard primary's clock"));
    }

    @Test
    void everyBrokenRule_isReportedAtOnceInTheHouseFormat() {
        assertThatThrownBy(
                        () ->
                                read(
                                        Map.of(
                                                "idemkit.lease-ttl", "-5s",
                                                "idemkit.completed-ttl", "forever",
                                                "idemkit.wait-timeout", "-1s",
                                                "idemkit.require-key", "yes",
                                                "idemkit.max-body-bytes", "99999999",
                                                "idemkit.memory.max-size", "0",
                                                "idemkit.max-waiters-per-key", "0",
                                                "idemkit.headers.stored", "Location, bad header",
                                                "idemkit.mongo.write-concern", "w2",
                                                "idemkit.mongo.database", "a$b")))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .containsExactlyInAnyOrder(
                                                "Invalid idemkit.lease-ttl=-5s: must be positive",
                                                "Invalid idemkit.completed-ttl=forever: must be a"
                                                        + " duration such as 500ms, 30s, 5m, 24h,"
                                                        + " 2d or PT30S",
                                                "Invalid idemkit.wait-timeout=-1s: must not be"
                                                        + " negative",
                                                "Invalid idemkit.require-key=yes: must be true or"
                                                        + " false",
                                                "Invalid idemkit.max-body-bytes=99999999: must be"
                                                        + " a whole number from 1 to 15728640",
                                                "Invalid idemkit.memory.max-size=0: must be a"
                                                        + " whole number from 1 to 2147483647",
                                                "Invalid idemkit.max-waiters-per-key=0: must be a"
                                                        + " whole number from 1 to 2147483647",
                                                "Invalid idemkit.headers.stored=Location, bad"
                                                        + " header: 'bad header' is not a header"
                                                        + " name",
                                                "Invalid idemkit.mongo.write-concern=w2: must be"
                                                        + " majority, acknowledged or a number of 1"
                                                        + " or more",
                                                "Invalid idemkit.mongo.database=a$b: must not"
                                                        + " contain a space, a NUL or any of / \\ ."
                                                        + " \" $ * < > : | ?"));
    }

    @Test
    void anEnvironmentVariableListedUnderADottedName_isNotWarnedAbout_aTypoInAPropertiesFileIs() {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(ConfigReader.class.getName());
        Handler capture =
                new Handler() {
                    @Override
                    public void publish(LogRecord record) {
                        if (record.getLevel() == Level.WARNING) {
                            warnings.add(record.getMessage());
                        }
                    }

                    @Override
                    public void flush() {}

                    @Override
                    public void close() {}
                };
        Config config =
                new SmallRyeConfigBuilder()
                        .withSources(
                                new EnvConfigSource(Map.of("IDEMKIT_LEASE_TTL", "45s"), 300),
                                // How a runtime may list that variable among the names.
                                new PropertiesConfigSource(
                                        Map.of("idemkit.wait_timeout", "5s"), "typos", 100))
                        .build();
        logger.addHandler(capture);
        IdemkitConfig read;
        try {
            read = ConfigReader.read(new DottedEnvironmentNames(config));
        } finally {
            logger.removeHandler(capture);
        }

        assertThat(read.defaults().leaseTtl()).isEqualTo(Duration.ofSeconds(45));
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0))
                .contains("idemkit.wait_timeout")
                .doesNotContain("idemkit.lease.ttl");
    }

    /**
     * A Config that lists environment variables under dotted, lower-case names, as some runtimes'
     * implementations do, and otherwise answers as the one it wraps.
     */
    private record DottedEnvironmentNames(Config config) implements Config {
        @Override
        public Iterable<String> getPropertyNames() {
            List<String> names = new ArrayList<>();
            for (String name : config.getPropertyNames()) {
                names.add(
                        name.equals("IDEMKIT_LEASE_TTL")
                                ? name.toLowerCase(Locale.ROOT).replace('_', '.')
                                : name);
            }
            return names;
        }

        @Override
        public <T> T getValue(String name, Class<T> type) {
            return config.getValue(name, type);
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            return config.getConfigValue(name);
        }

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            return config.getOptionalValue(name, type);
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return config.getConfigSources();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> type) {
            return config.getConverter(type);
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            return config.unwrap(type);
        }
    }
}
