package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The round trips the Redis store's Javadoc promises, counted by a real server of the test's own
 * ({@code INFO commandstats}, {@code INFO persistence}): a fresh request is two script calls, a
 * replay one that writes nothing. The store's connection sends nothing else once it is open.
 */
class RedisRoundTripTest {

    private static final String FP = "f".repeat(64);
    private static final Duration TTL = Duration.ofMinutes(5);
    private static RedisServer server;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The script calls the server ran, and the changes it made, since it started. */
    private record Counts(long scripts, long changes) {
        static Counts of(Jedis raw) {
            long scripts = 0;
            for (String line : raw.info("commandstats").split("\r\n")) {
                if (line.startsWith("cmdstat_eval:") || line.startsWith("cmdstat_evalsha:")) {
                    int calls = line.indexOf("calls=") + "calls=".length();
                    scripts += Long.parseLong(line.substring(calls, line.indexOf(',', calls)));
                }
            }
            long changes = 0;
            for (String line : raw.info("persistence").split("\r\n")) {
                if (line.startsWith("rdb_changes_since_last_save:")) {
                    changes = Long.parseLong(line.substring(line.indexOf(':') + 1));
                }
            }
            return new Counts(scripts, changes);
        }

        Counts since(Counts before) {
            return new Counts(scripts - before.scripts, changes - before.changes);
        }
    }

    @Test
    void aFreshRequest_isTwoCalls_andAReplayOne_thatWritesNothing() {
        try (RedisIdempotencyStore store =
                RedisStoreOpening.open(RedisStoreSettings.forUri(server.uri()))) {
            // Connected, and the claim's and the completion's scripts loaded.
            String warm = "warm-" + UUID.randomUUID();
            store.complete(
                    warm,
                    store.claim(warm, FP, 1, TTL).token(),
                    new StoredResult(200, List.of(), new byte[0]),
                    TTL);
            String key = "k" + UUID.randomUUID();

            try (Jedis raw = server.connect()) {
                Counts before = Counts.of(raw);
                ClaimResult claim = store.claim(key, FP, 1, TTL);
                store.complete(
                        key, claim.token(), new StoredResult(200, List.of(), new byte[2]), TTL);
                Counts fresh = Counts.of(raw).since(before);

                Counts beforeReplay = Counts.of(raw);
                assertThat(store.claim(key, FP, 1, TTL).status())
                        .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
                Counts replay = Counts.of(raw).since(beforeReplay);

                assertThat(fresh.scripts()).as("script calls of a fresh request").isEqualTo(2);
                assertThat(fresh.changes()).as("changes made by a fresh request").isPositive();
                assertThat(replay.scripts()).as("script calls of a replay").isEqualTo(1);
                assertThat(replay.changes()).as("changes made by a replay").isZero();
            }
        }
    }
}
