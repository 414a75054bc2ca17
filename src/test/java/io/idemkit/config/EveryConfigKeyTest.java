package io.idemkit.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.admin.http.AdminKeys;
import io.idemkit.admin.http.AdminSettings;
import io.idemkit.client.ClientKeys;
import io.idemkit.client.ClientSettings;
import io.idemkit.client.ClientSettingsReader;
import io.idemkit.core.CompletionMode;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.http.HttpKeys;
import io.idemkit.http.HttpRequestFilterPriority;
import io.idemkit.http.HttpSettings;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.jdbc.JdbcKeys;
import io.idemkit.store.jdbc.JdbcSettingsReader;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.idemkit.store.memory.MemoryKeys;
import io.idemkit.store.memory.MemoryStoreSettings;
import io.idemkit.store.mongo.MongoKeys;
import io.idemkit.store.mongo.MongoSettingsReader;
import io.idemkit.store.mongo.MongoStoreSettings;
import io.idemkit.store.redis.RedisKeys;
import io.idemkit.store.redis.RedisStoreSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * Every key in {@link ConfigKeys}, and every key a bundled store declares, is read by some reader
 * (C8): each one, set alone to a value other than its default, changes what the readers return. The
 * table below must name every key, so that a new key cannot be added without a test that it is
 * read.
 */
class EveryConfigKeyTest {

    /** What every reader returns for one configuration. */
    private record Readings(
            IdemkitConfig engine,
            MemoryStoreSettings memory,
            MongoStoreSettings mongo,
            JdbcStoreSettings jdbc,
            RedisStoreSettings redis,
            AdminSettings admin,
            ClientSettings client,
            HttpSettings http,
            int httpRequestFilterPriority) {}

    /** A key set alone to {@code value}, and what it must change. */
    private record KeyCase(String value, Function<Readings, Object> read, Object expected) {}

    private static final Map<String, KeyCase> CASES =
            Map.ofEntries(
                    Map.entry(
                            ConfigKeys.STORE,
                            new KeyCase("memory", r -> r.engine().store(), "memory")),
                    Map.entry(
                            ConfigKeys.LEASE_TTL,
                            new KeyCase(
                                    "45s",
                                    r -> r.engine().defaults().leaseTtl(),
                                    Duration.ofSeconds(45))),
                    Map.entry(
                            ConfigKeys.COMPLETED_TTL,
                            new KeyCase(
                                    "2h",
                                    r -> r.engine().defaults().completedTtl(),
                                    Duration.ofHours(2))),
                    Map.entry(
                            ConfigKeys.WAIT_TIMEOUT,
                            new KeyCase(
                                    "0s", r -> r.engine().defaults().waitTimeout(), Duration.ZERO)),
                    Map.entry(
                            ConfigKeys.ON_STORAGE_ERROR,
                            new KeyCase(
                                    "fail-open",
                                    r -> r.engine().defaults().onStorageError(),
                                    StorageErrorMode.FAIL_OPEN)),
                    Map.entry(
                            HttpKeys.COMPAT_MODE,
                            new KeyCase(
                                    "stripe",
                                    r -> r.http().compatMode(),
                                    io.idemkit.http.CompatMode.STRIPE)),
                    Map.entry(
                            ConfigKeys.SCOPE_MODE,
                            new KeyCase(
                                    "single-tenant",
                                    r -> r.engine().scopeMode(),
                                    ScopeMode.SINGLE_TENANT)),
                    Map.entry(
                            ConfigKeys.SCOPE_SOURCE,
                            new KeyCase(
                                    "principal",
                                    r -> r.engine().scopeSource(),
                                    ScopeSource.PRINCIPAL)),
                    Map.entry(
                            HttpKeys.REQUIRE_KEY,
                            new KeyCase("true", r -> r.http().requireKey(), true)),
                    Map.entry(
                            ConfigKeys.MAX_BODY_BYTES,
                            new KeyCase("2048", r -> r.engine().maxBodyBytes(), 2048)),
                    Map.entry(
                            HttpKeys.MAX_REQUEST_BYTES,
                            new KeyCase("4096", r -> r.http().maxRequestBytes(), 4096)),
                    Map.entry(
                            ConfigKeys.CACHEABLE_STATUS,
                            new KeyCase(
                                    "2xx, 409",
                                    r ->
                                            r.engine()
                                                    .defaults()
                                                    .cacheable()
                                                    .isCacheable(
                                                            new StoredResult(
                                                                    409, List.of(), new byte[0])),
                                    true)),
                    Map.entry(
                            HttpKeys.HEADERS_STORED,
                            new KeyCase(
                                    "Location, X-Request-Id",
                                    r -> r.http().headersStored(),
                                    Set.of("location", "x-request-id"))),
                    Map.entry(
                            HttpKeys.HEADERS_NEVER_STORED,
                            new KeyCase(
                                    "X-Internal",
                                    r -> r.http().headersNeverStored(),
                                    Set.of(
                                            "x-internal",
                                            "set-cookie",
                                            "authorization",
                                            "www-authenticate",
                                            "proxy-authenticate",
                                            "proxy-authorization"))),
                    Map.entry(
                            ConfigKeys.HEARTBEAT_INTERRUPT,
                            new KeyCase("false", r -> r.engine().heartbeatInterrupt(), false)),
                    Map.entry(
                            HttpKeys.HEARTBEAT,
                            new KeyCase("true", r -> r.http().heartbeat(), true)),
                    Map.entry(
                            HttpKeys.REQUEST_FILTER_PRIORITY,
                            new KeyCase(
                                    "2100",
                                    // As the deployment reads it, and where JAX-RS registers.
                                    r ->
                                            List.of(
                                                    r.http().requestFilterPriority(),
                                                    r.httpRequestFilterPriority()),
                                    List.of(2100, 2100))),
                    Map.entry(
                            HttpKeys.FILTERS_AFTER_IDEMKIT,
                            new KeyCase(
                                    "com.example.AccessLog, com.example.Cors$Filter",
                                    r -> r.http().filtersAfterIdemkit(),
                                    Set.of("com.example.AccessLog", "com.example.Cors$Filter"))),
                    Map.entry(
                            ConfigKeys.MAX_WAITERS_PER_KEY,
                            new KeyCase("8", r -> r.engine().maxWaitersPerKey(), 8)),
                    Map.entry(MemoryKeys.MAX_SIZE, new KeyCase("5", r -> r.memory().maxSize(), 5)),
                    Map.entry(
                            MemoryKeys.MAX_BYTES,
                            new KeyCase("4294967296", r -> r.memory().maxBytes(), 4_294_967_296L)),
                    Map.entry(
                            MemoryKeys.SWEEP_INTERVAL,
                            new KeyCase(
                                    "5m", r -> r.memory().sweepInterval(), Duration.ofMinutes(5))),
                    Map.entry(
                            ConfigKeys.COMPLETION,
                            new KeyCase(
                                    "in-transaction",
                                    r -> r.engine().defaults().completion(),
                                    CompletionMode.IN_TRANSACTION)),
                    Map.entry(
                            ConfigKeys.KEY_HEADER,
                            new KeyCase(
                                    "X-Request-Key",
                                    r -> r.engine().keyDefaults().keyHeader(),
                                    "X-Request-Key")),
                    Map.entry(
                            ConfigKeys.KEY_EXTRACTOR,
                            new KeyCase(
                                    "com.example.OrderReference",
                                    r -> r.engine().keyDefaults().keyExtractor(),
                                    Optional.of("com.example.OrderReference"))),
                    Map.entry(
                            ConfigKeys.FINGERPRINT_HEADERS,
                            new KeyCase(
                                    "Currency, Accept-Version",
                                    r -> r.engine().keyDefaults().fingerprintHeaders(),
                                    List.of("accept-version", "currency"))),
                    Map.entry(
                            ConfigKeys.FINGERPRINT_FIELDS,
                            new KeyCase(
                                    "order.id, amount",
                                    r -> r.engine().keyDefaults().fingerprintFields(),
                                    List.of("amount", "order.id"))),
                    Map.entry(
                            ConfigKeys.METHOD_DERIVED_KEY,
                            new KeyCase(
                                    "refuse",
                                    r -> r.engine().derivedKeys(),
                                    DerivedKeyMode.REFUSE)),
                    Map.entry(
                            ConfigKeys.MESSAGE_KEY_PROPERTY,
                            new KeyCase(
                                    "orderId",
                                    r -> r.engine().messageDefaults().keyProperty(),
                                    "orderId")),
                    Map.entry(
                            ConfigKeys.MESSAGE_MAX_ATTEMPTS,
                            new KeyCase("7", r -> r.engine().messageDefaults().maxAttempts(), 7)),
                    Map.entry(
                            ConfigKeys.MESSAGE_FINGERPRINT,
                            new KeyCase(
                                    "body",
                                    r -> r.engine().messageDefaults().fingerprintBody(),
                                    true)),
                    Map.entry(
                            ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT,
                            new KeyCase(
                                    "5m",
                                    r -> r.engine().messageTransactionTimeout(),
                                    Optional.of(Duration.ofMinutes(5)))),
                    Map.entry(
                            ConfigKeys.MESSAGE_EXHAUSTED,
                            new KeyCase(
                                    "nack",
                                    r -> r.engine().exhaustedRecords(),
                                    ExhaustedRecords.NACK)),
                    Map.entry(
                            ConfigKeys.MESSAGE_KEY_SOURCE,
                            new KeyCase(
                                    "record-key",
                                    r -> r.engine().messageDefaults().keySource(),
                                    MessageKeySource.RECORD_KEY)),
                    Map.entry(
                            ConfigKeys.MESSAGE_PROCESSOR_DUPLICATES,
                            new KeyCase(
                                    "drop",
                                    r -> r.engine().processorDuplicates(),
                                    ProcessorDuplicates.DROP)),
                    Map.entry(
                            RedisKeys.URI,
                            new KeyCase(
                                    "redis://cache:6380",
                                    r -> r.redis().uri(),
                                    "redis://cache:6380")),
                    Map.entry(
                            RedisKeys.NODES,
                            new KeyCase(
                                    "a:7000, b:7001",
                                    r -> r.redis().nodes(),
                                    List.of("a:7000", "b:7001"))),
                    Map.entry(RedisKeys.USER, new KeyCase("app", r -> r.redis().user(), "app")),
                    Map.entry(
                            RedisKeys.PASSWORD,
                            new KeyCase("s3cret", r -> r.redis().password(), "s3cret")),
                    Map.entry(RedisKeys.TLS, new KeyCase("true", r -> r.redis().tls(), true)),
                    Map.entry(
                            RedisKeys.TIMEOUT,
                            new KeyCase("2s", r -> r.redis().timeout(), Duration.ofSeconds(2))),
                    Map.entry(RedisKeys.POOL_SIZE, new KeyCase("8", r -> r.redis().poolSize(), 8)),
                    Map.entry(
                            RedisKeys.KEY_PREFIX,
                            new KeyCase("shop:", r -> r.redis().keyPrefix(), "shop:")),
                    Map.entry(
                            RedisKeys.LEASE_GRACE,
                            new KeyCase("5m", r -> r.redis().leaseGrace(), Duration.ofMinutes(5))),
                    Map.entry(
                            RedisKeys.WAIT_REPLICAS,
                            new KeyCase("1", r -> r.redis().waitReplicas(), 1)),
                    Map.entry(
                            RedisKeys.WAIT_TIMEOUT,
                            new KeyCase(
                                    "250ms", r -> r.redis().waitTimeout(), Duration.ofMillis(250))),
                    Map.entry(
                            RedisKeys.NOTIFICATIONS,
                            new KeyCase("false", r -> r.redis().notifications(), false)),
                    Map.entry(
                            RedisKeys.POLL_LONGEST_PAUSE,
                            new KeyCase(
                                    "1m",
                                    r -> r.redis().pollLongestPause(),
                                    Duration.ofMinutes(1))),
                    Map.entry(
                            RedisKeys.EVICTION_CHECK,
                            new KeyCase(
                                    "warn",
                                    r -> r.redis().evictionCheck(),
                                    RedisStoreSettings.EvictionCheck.WARN)),
                    Map.entry(
                            MongoKeys.URI,
                            new KeyCase(
                                    "mongodb://db:27017",
                                    r -> r.mongo().uri(),
                                    "mongodb://db:27017")),
                    Map.entry(
                            MongoKeys.DATABASE,
                            new KeyCase("shop", r -> r.mongo().database(), "shop")),
                    Map.entry(
                            MongoKeys.COLLECTION,
                            new KeyCase("keys", r -> r.mongo().collection(), "keys")),
                    Map.entry(
                            MongoKeys.TIMEOUT,
                            new KeyCase("2s", r -> r.mongo().timeout(), Duration.ofSeconds(2))),
                    Map.entry(
                            MongoKeys.WRITE_CONCERN,
                            new KeyCase(
                                    "Majority",
                                    r -> r.mongo().driverWriteConcern().orElseThrow(),
                                    com.mongodb.WriteConcern.MAJORITY)),
                    Map.entry(
                            MongoKeys.LEASE_GRACE,
                            new KeyCase("5m", r -> r.mongo().leaseGrace(), Duration.ofMinutes(5))),
                    Map.entry(
                            JdbcKeys.DATASOURCE,
                            new KeyCase(
                                    "java:app/jdbc/shop",
                                    r -> r.jdbc().dataSourceName(),
                                    "java:app/jdbc/shop")),
                    Map.entry(
                            JdbcKeys.TABLE,
                            new KeyCase("shop.idem", r -> r.jdbc().table(), "shop.idem")),
                    Map.entry(
                            JdbcKeys.TRANSACTION_DATASOURCE,
                            new KeyCase(
                                    "jdbc/shop",
                                    r -> r.jdbc().transactionDataSourceName(),
                                    "jdbc/shop")),
                    Map.entry(
                            JdbcKeys.CREATE_TABLE,
                            new KeyCase("true", r -> r.jdbc().createTable(), true)),
                    Map.entry(
                            JdbcKeys.PURGE_INTERVAL,
                            new KeyCase(
                                    "5m", r -> r.jdbc().purgeInterval(), Duration.ofMinutes(5))),
                    Map.entry(
                            JdbcKeys.NOTIFICATIONS,
                            new KeyCase("false", r -> r.jdbc().notifications(), false)),
                    Map.entry(
                            JdbcKeys.OWNER_LOCK_TIMEOUT,
                            new KeyCase(
                                    "20s",
                                    r -> r.jdbc().ownerLockTimeout(),
                                    Duration.ofSeconds(20))),
                    Map.entry(
                            JdbcKeys.POLL_LONGEST_PAUSE,
                            new KeyCase(
                                    "30s",
                                    r -> r.jdbc().pollLongestPause(),
                                    Duration.ofSeconds(30))),
                    Map.entry(
                            JdbcKeys.NETWORK_TIMEOUT,
                            new KeyCase(
                                    "12s", r -> r.jdbc().networkTimeout(), Duration.ofSeconds(12))),
                    Map.entry(
                            AdminKeys.ENABLED, new KeyCase("true", r -> r.admin().enabled(), true)),
                    Map.entry(
                            AdminKeys.ROLE,
                            new KeyCase("ops", r -> r.admin().requiredRole().orElseThrow(), "ops")),
                    Map.entry(
                            ClientKeys.KEY_HEADER,
                            new KeyCase("X-Key", r -> r.client().keyHeader(), "X-Key")),
                    Map.entry(
                            ClientKeys.METHODS,
                            new KeyCase(
                                    "post, put", r -> r.client().methods(), Set.of("POST", "PUT"))),
                    Map.entry(
                            ClientKeys.KEY_WITHOUT_OPERATION,
                            new KeyCase("false", r -> r.client().keyWithoutOperation(), false)),
                    Map.entry(
                            ClientKeys.KEY_LIFETIME,
                            new KeyCase("2h", r -> r.client().keyLifetime(), Duration.ofHours(2))),
                    Map.entry(
                            ClientKeys.RETRY_MAX_RETRIES,
                            new KeyCase("5", r -> r.client().maxRetries(), 5)),
                    Map.entry(
                            ClientKeys.RETRY_DELAY,
                            new KeyCase("1s", r -> r.client().delay(), Duration.ofSeconds(1))),
                    Map.entry(
                            ClientKeys.RETRY_MAX_DELAY,
                            new KeyCase("30s", r -> r.client().maxDelay(), Duration.ofSeconds(30))),
                    Map.entry(
                            ClientKeys.RETRY_MAX_DURATION,
                            new KeyCase(
                                    "2m", r -> r.client().maxDuration(), Duration.ofMinutes(2))),
                    Map.entry(
                            ClientKeys.RETRY_STATUSES,
                            new KeyCase("503", r -> r.client().retryStatuses(), Set.of(503))));

    private static Readings read(Map<String, String> properties) {
        Config config =
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build();
        ConfigValues values = new ConfigValues(config);
        MemoryStoreSettings memory = MemoryStoreSettings.read(values);
        MongoStoreSettings mongo = MongoSettingsReader.read(values);
        JdbcStoreSettings jdbc = JdbcSettingsReader.read(values);
        RedisStoreSettings redis = RedisStoreSettings.read(values);
        IdemkitConfig engine = ConfigReader.read(values);
        ClientSettings client = ClientSettingsReader.read(values);
        HttpSettings http = HttpSettings.read(values);
        return new Readings(
                engine,
                memory,
                mongo,
                jdbc,
                redis,
                AdminSettings.read(config),
                client,
                http,
                HttpRequestFilterPriority.of(config));
    }

    @Test
    void theTable_namesEveryKeyOfConfigKeysAndOfEveryWing() {
        Set<String> every = new TreeSet<>(ConfigKeys.all());
        ServiceLoader.load(StoreFactory.class).forEach(f -> every.addAll(f.keys()));
        ServiceLoader.load(ConfigSection.class).forEach(section -> every.addAll(section.keys()));

        assertThat(CASES.keySet()).containsExactlyInAnyOrderElementsOf(every);
    }

    /** A store's keys are its wing's: each factory declares those of its own holder. */
    @Test
    void eachBundledStore_declaresTheKeysOfItsOwnWing() {
        Map<String, Set<String>> byStore = new TreeMap<>();
        ServiceLoader.load(StoreFactory.class).forEach(f -> byStore.put(f.name(), f.keys()));

        assertThat(byStore)
                .containsOnly(
                        Map.entry("memory", MemoryKeys.all()),
                        Map.entry("mongo", MongoKeys.all()),
                        Map.entry("jdbc", JdbcKeys.all()),
                        Map.entry("redis", RedisKeys.all()));
        byStore.forEach(
                (name, keys) ->
                        assertThat(keys).allMatch(k -> k.startsWith("idemkit." + name + ".")));
    }

    @Test
    void everyKey_setAlone_changesWhatItsReaderReturns() {
        Readings defaults = read(Map.of());
        for (Map.Entry<String, KeyCase> entry : CASES.entrySet()) {
            String key = entry.getKey();
            KeyCase keyCase = entry.getValue();

            Readings set = read(Map.of(key, keyCase.value()));

            assertThat(keyCase.read().apply(set)).as(key).isEqualTo(keyCase.expected());
            assertThat(safely(keyCase.read(), defaults))
                    .as(key + " differs from its default")
                    .isNotEqualTo(keyCase.expected());
        }
    }

    /** A default with no value (an unset URI or role) reads as {@code null}. */
    private static Object safely(Function<Readings, Object> read, Readings readings) {
        try {
            return read.apply(readings);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
