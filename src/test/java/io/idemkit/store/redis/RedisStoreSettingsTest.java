package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigValues;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisStoreSettingsTest {

    private static ConfigValues values(Map<String, String> properties) {
        return new ConfigValues(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build());
    }

    @Test
    void defaults_areTheDocumentedOnes() {
        ConfigValues values = values(Map.of());
        RedisStoreSettings defaults = RedisStoreSettings.read(values);

        assertThat(values.problems()).isEmpty();
        assertThat(defaults.configured()).isFalse();
        assertThat(defaults.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.poolSize()).isEqualTo(32);
        assertThat(defaults.keyPrefix()).isEqualTo("idemkit:");
        assertThat(defaults.leaseGrace()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.waitReplicas()).isZero();
        assertThat(defaults.waitTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.notifications()).isTrue();
        assertThat(defaults.evictionCheck()).isEqualTo(RedisStoreSettings.EvictionCheck.REFUSE);
    }

    @Test
    void aUriThatIsNoRedisUri_isRefusedWithoutShowingIt() {
        ConfigValues values = values(Map.of(RedisKeys.URI, "http://app:s3cret@cache:6379"));
        RedisStoreSettings.read(values);

        assertThat(values.problems())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("Invalid idemkit.redis.uri: must be redis://host:port")
                .doesNotContain("s3cret");
    }

    @Test
    void bothAUriAndNodes_areRefused() {
        ConfigValues values =
                values(Map.of(RedisKeys.URI, "redis://a:6379", RedisKeys.NODES, "b:7000"));
        RedisStoreSettings.read(values);

        assertThat(values.problems())
                .containsExactly(
                        "Invalid idemkit.redis.nodes: idemkit.redis.uri is set too; set"
                                + " idemkit.redis.uri for one server or idemkit.redis.nodes for a"
                                + " Redis Cluster, not both");
    }

    @Test
    void aNodeWithoutAPort_isRefusedNamingIt() {
        ConfigValues values = values(Map.of(RedisKeys.NODES, "a:7000,b"));
        RedisStoreSettings.read(values);

        assertThat(values.problems())
                .containsExactly(
                        "Invalid idemkit.redis.nodes=a:7000,b: each node must be host:port, was"
                                + " 'b'");
    }

    @Test
    void aKeyPrefixWithAHashTag_isRefusedWithTheReason() {
        ConfigValues values = values(Map.of(RedisKeys.KEY_PREFIX, "{shop}:"));
        RedisStoreSettings.read(values);

        assertThat(values.problems())
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("Invalid idemkit.redis.key-prefix={shop}:: must not contain { or }");
    }

    @Test
    void everyBrokenKey_isItsOwnProblem() {
        ConfigValues values =
                values(
                        Map.of(
                                RedisKeys.WAIT_REPLICAS, "-1",
                                RedisKeys.TIMEOUT, "0s",
                                RedisKeys.POOL_SIZE, "none",
                                RedisKeys.EVICTION_CHECK, "ignore",
                                RedisKeys.KEY_PREFIX, "a b"));
        RedisStoreSettings.read(values);

        assertThat(values.problems())
                .hasSize(5)
                .anySatisfy(p -> assertThat(p).startsWith("Invalid idemkit.redis.wait-replicas=-1"))
                .anySatisfy(p -> assertThat(p).startsWith("Invalid idemkit.redis.timeout=0s"))
                .anySatisfy(p -> assertThat(p).startsWith("Invalid idemkit.redis.pool-size=none"))
                .anySatisfy(
                        p ->
                                assertThat(p)
                                        .startsWith("Invalid idemkit.redis.eviction-check=ignore"))
                .anySatisfy(p -> assertThat(p).startsWith("Invalid idemkit.redis.key-prefix=a b"));
    }

    @Test
    void theNodesList_isReadInOrder() {
        ConfigValues values = values(Map.of(RedisKeys.NODES, " a:7000 , b:7001,c:7002"));
        RedisStoreSettings settings = RedisStoreSettings.read(values);

        assertThat(values.problems()).isEmpty();
        assertThat(settings.cluster()).isTrue();
        assertThat(settings.nodes()).isEqualTo(List.of("a:7000", "b:7001", "c:7002"));
    }

    @Test
    void toString_neverShowsAPassword() {
        ConfigValues values =
                values(
                        Map.of(
                                RedisKeys.URI,
                                "rediss://app:s3cret@cache:6380/2",
                                RedisKeys.PASSWORD,
                                "t0psecret"));
        String shown = RedisStoreSettings.read(values).toString();

        assertThat(shown)
                .contains("rediss://***@cache:6380/2")
                .doesNotContain("s3cret")
                .doesNotContain("t0psecret");
    }
}
