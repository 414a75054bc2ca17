package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@code idemkit.redis.wait-replicas} on a real primary and replica: a completion returns only once
 * the replica has it, and one the replica cannot acknowledge still counts as done, after the wait,
 * with a warning that a failover could lose it.
 */
class RedisWaitReplicasTest {

    private static final String FP = "f".repeat(64);
    private static final Duration TTL = Duration.ofMinutes(5);
    private static final Duration WAIT = Duration.ofMillis(500);
    private static RedisServer primary;
    private static RedisServer replica;

    @BeforeAll
    static void start() {
        primary = RedisServer.builder().start();
        replica = RedisServer.builder().replicaOf(primary).start();
    }

    @AfterAll
    static void stop() {
        replica.close();
        primary.close();
    }

    @Test
    void aCompletion_returnsOnlyOnceTheReplicaHasIt() {
        try (RedisIdempotencyStore store =
                        RedisStoreOpening.open(
                                RedisStoreSettings.forUri(primary.uri()).withWait(1, TTL));
                Jedis onReplica = replica.connect()) {
            for (int i = 0; i < 20; i++) {
                String key = "k" + UUID.randomUUID();
                ClaimResult claim = store.claim(key, FP, 1, TTL);

                assertThat(store.complete(key, claim.token(), result(), TTL)).isTrue();

                // Read on the replica at once: WAIT returned, so it has applied the completion.
                assertThat(onReplica.hget("idemkit:" + key, "state")).isEqualTo("COMPLETED");
            }
        }
    }

    @Test
    void aCompletionNoReplicaAcknowledges_isStoredAfterTheWait_withAWarning() {
        try (CapturedLog log = CapturedLog.of(RedisIdempotencyStore.class);
                RedisIdempotencyStore store =
                        RedisStoreOpening.open(
                                RedisStoreSettings.forUri(primary.uri()).withWait(2, WAIT))) {
            String key = "k" + UUID.randomUUID();
            ClaimResult claim = store.claim(key, FP, 1, TTL);

            long started = System.nanoTime();
            assertThat(store.complete(key, claim.token(), result(), TTL)).isTrue();

            // Two replicas asked, one there: WAIT gives up at its timeout, not before.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(WAIT);
            assertThat(store.find(key).orElseThrow().result()).isEqualTo(result());
            assertThat(log.warnings())
                    .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("1 of the 2 replicas (idemkit.redis.wait-replicas)")
                    .contains("a failover before they catch up could lose it");
        }
    }

    private static StoredResult result() {
        return new StoredResult(
                200, List.of(), "done".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
