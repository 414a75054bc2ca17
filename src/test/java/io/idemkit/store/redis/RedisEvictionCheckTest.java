package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.testsupport.CapturedLog;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The deployment's look at real servers' eviction policy (C16): a server that may evict idemkit's
 * keys when full is refused, or warned about when the application accepts the risk; one that cannot
 * be asked is warned about and does not fail the deployment.
 */
class RedisEvictionCheckTest {

    private static List<String> openingProblems(Map<String, String> properties) {
        ConfigValues values =
                new ConfigValues(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(properties, "test", 500))
                                .build());
        RedisStoreFactory factory = new RedisStoreFactory();
        factory.read(values);
        IdemkitConfig config = ConfigReader.read(values);
        List<String> problems = factory.open(null, config);
        if (problems.isEmpty()) {
            factory.store(null, config).close();
        }
        return problems;
    }

    private static Map<String, String> on(RedisServer server, String... more) {
        Map<String, String> properties = new HashMap<>();
        properties.put("idemkit.store", "redis");
        properties.put(RedisKeys.URI, server.uri());
        for (int i = 0; i < more.length; i += 2) {
            properties.put(more[i], more[i + 1]);
        }
        return properties;
    }

    @Test
    void aServerThatMayEvict_isRefused_namingItsPolicyAndTheWayOut() {
        try (RedisServer server = RedisServer.builder().maxMemory("64mb", "allkeys-lru").start()) {
            assertThat(openingProblems(on(server)))
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("Redis may evict idemkit's keys when it is full:")
                    .contains("maxmemory-policy allkeys-lru")
                    .contains("Set maxmemory-policy noeviction")
                    .contains("idemkit.redis.eviction-check=warn");
        }
    }

    @Test
    void aVolatilePolicy_isRefusedToo_sinceEveryRecordHasATtl() {
        try (RedisServer server = RedisServer.builder().maxMemory("64mb", "volatile-ttl").start()) {
            assertThat(openingProblems(on(server))).hasSize(1);
        }
    }

    @Test
    void underWarn_theDeploymentGoesOn_withTheWarning() {
        try (RedisServer server = RedisServer.builder().maxMemory("64mb", "allkeys-lru").start();
                CapturedLog log = CapturedLog.of(RedisStoreFactory.class)) {
            assertThat(openingProblems(on(server, RedisKeys.EVICTION_CHECK, "warn"))).isEmpty();
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("Redis may evict idemkit's keys when it is full:");
        }
    }

    @Test
    void noevictionOrNoLimit_passQuietly() {
        try (RedisServer limited = RedisServer.builder().maxMemory("64mb", "noeviction").start();
                CapturedLog log = CapturedLog.of(RedisStoreFactory.class)) {
            assertThat(openingProblems(on(limited))).isEmpty();
            assertThat(openingProblems(on(RedisServer.shared()))).isEmpty();
            assertThat(log.warnings()).isEmpty();
        }
    }

    @Test
    void aServerThatCannotBeAsked_isWarnedAbout_andDoesNotFailTheDeployment() {
        int nobody;
        try (RedisServer gone = RedisServer.builder().start()) {
            nobody = gone.port();
        }
        try (CapturedLog log = CapturedLog.of(RedisStoreFactory.class)) {
            Map<String, String> properties =
                    Map.of(
                            "idemkit.store",
                            "redis",
                            RedisKeys.URI,
                            "redis://127.0.0.1:" + nobody,
                            RedisKeys.TIMEOUT,
                            "500ms",
                            "idemkit.lease-ttl",
                            "30s");
            assertThat(openingProblems(properties)).isEmpty();
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("idemkit could not check whether Redis may evict its keys");
        }
    }
}
