package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What a Redis crash keeps (docs/redis-store.md): with the append-only file on and fsync at every
 * write, a completed result survives a SIGKILL of the server; without persistence, a restart loses
 * every record, and the operation would run again.
 */
class RedisPersistenceTest {

    private static final String FP = "f".repeat(64);
    private static final Duration TTL = Duration.ofMinutes(5);

    @Test
    void withAppendOnlyAlways_aCompletedResultSurvivesAKill() {
        try (RedisServer server = RedisServer.builder().appendOnly(true).start()) {
            RedisIdempotencyStore store =
                    RedisStoreOpening.open(RedisStoreSettings.forUri(server.uri()));
            String key = "k" + UUID.randomUUID();
            ClaimResult claim = store.claim(key, FP, 1, TTL);
            assertThat(store.complete(key, claim.token(), result(), TTL)).isTrue();

            server.kill();
            server.start();

            ClaimResult again = store.claim(key, FP, 1, TTL);
            assertThat(again.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
            assertThat(again.record().result()).isEqualTo(result());
            store.close();
        }
    }

    @Test
    void withoutPersistence_aRestartLosesTheRecord() {
        try (RedisServer server = RedisServer.builder().start()) {
            RedisIdempotencyStore store =
                    RedisStoreOpening.open(RedisStoreSettings.forUri(server.uri()));
            String key = "k" + UUID.randomUUID();
            ClaimResult claim = store.claim(key, FP, 1, TTL);
            assertThat(store.complete(key, claim.token(), result(), TTL)).isTrue();

            server.kill();
            server.start();

            assertThat(store.claim(key, FP, 1, TTL).status()).isEqualTo(ClaimStatus.NEW);
            store.close();
        }
    }

    private static StoredResult result() {
        return new StoredResult(
                201, List.of(), "paid".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
