package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The store runs as a Redis ACL user that has only what docs/redis-store.md lists: its keys, its
 * channel, and the commands named there. A real server enforces the ACL.
 */
class RedisAclTest {

    private static final String FP = "f".repeat(64);
    private static final Duration TTL = Duration.ofMinutes(1);

    @Test
    void theDocumentedPermissions_areEnoughForEveryOperation_andTheDeploymentCheck()
            throws Exception {
        try (RedisServer server = RedisServer.builder().requirePass("admin-pw").start()) {
            try (Jedis admin = server.connect()) {
                admin.aclSetUser(
                        "idemkit",
                        "on",
                        ">app-pw",
                        "resetkeys",
                        "~idemkit:*",
                        "resetchannels",
                        "&idemkit:*",
                        "-@all",
                        "+evalsha",
                        "+eval",
                        "+subscribe",
                        "+wait",
                        "+config|get",
                        "+auth",
                        "+client|setinfo",
                        "+ping",
                        "+time",
                        "+exists",
                        "+hmget",
                        "+hset",
                        "+del",
                        "+pexpireat",
                        "+pexpire",
                        "+incr",
                        "+publish");
            }
            Map<String, String> properties =
                    Map.of(
                            RedisKeys.URI,
                            "redis://idemkit:app-pw@127.0.0.1:" + server.port(),
                            RedisKeys.WAIT_REPLICAS,
                            "0");
            ConfigValues values =
                    new ConfigValues(
                            new SmallRyeConfigBuilder()
                                    .withSources(
                                            new PropertiesConfigSource(properties, "test", 500))
                                    .build());
            RedisStoreFactory factory = new RedisStoreFactory();
            factory.read(values);
            try (CapturedLog log = CapturedLog.of(RedisStoreFactory.class)) {
                assertThat(factory.open(null, ConfigReader.read(values))).isEmpty();
                assertThat(log.warnings()).as("the eviction check could ask").isEmpty();
            }
            try (RedisIdempotencyStore store =
                    (RedisIdempotencyStore) factory.store(null, ConfigReader.read(values))) {
                String key = "k" + UUID.randomUUID();
                ClaimResult claim = store.claim(key, FP, 1, TTL);
                assertThat(store.renew(key, claim.token(), TTL)).isTrue();
                assertThat(store.complete(key, claim.token(), ok(), TTL)).isTrue();
                assertThat(store.awaitCompletion(key, Duration.ZERO)).isPresent();
                await().atMost(Duration.ofSeconds(10)).until(store::listening);
                assertThat(store.countAttempt("a" + UUID.randomUUID(), TTL)).isEqualTo(1);
                assertThat(store.delete(key)).isTrue();
                assertThat(store.health().up()).isTrue();
            }
        }
    }

    private static StoredResult ok() {
        return new StoredResult(200, List.of(), new byte[] {1});
    }
}
