package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.IdempotencyStorageException.Kind;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The Redis store under faults injected into a real server of the test's own: stopped, stalled (the
 * process stopped with SIGSTOP: connections stay open, nothing answers), restarted without its
 * scripts, full. Each failure is the documented kind, bounded by the timeout, and the store
 * recovers by itself when the server does.
 */
class RedisFaultsTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static RedisServer server;
    private RedisIdempotencyStore store;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void open() {
        store =
                RedisStoreOpening.open(
                        RedisStoreSettings.forUri(server.uri()).withTimeout(TIMEOUT));
    }

    @AfterEach
    void close() {
        store.close();
        server.resume();
        server.start();
    }

    private static String key() {
        return "k" + UUID.randomUUID();
    }

    @Test
    void aStoppedServer_failsEveryCallAsUnreachable_andTheStoreRecoversWhenItIsBack() {
        String done = key();
        ClaimResult first = store.claim(done, FP, 1, LEASE);
        server.stop();

        assertThatThrownBy(() -> store.claim(key(), FP, 1, LEASE))
                .isInstanceOfSatisfying(
                        IdempotencyStorageException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE))
                .hasMessageStartingWith("Redis store: claim failed:")
                .hasMessageContaining("nothing is known to have been written");
        assertThatThrownBy(() -> store.find(done))
                .isInstanceOfSatisfying(
                        IdempotencyStorageException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));

        server.start();

        // The server came back empty, without the scripts: they are sent again, and it works.
        assertThat(store.claim(done, FP, 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
        assertThat(store.complete(done, first.token(), ok(), LEASE)).isFalse();
    }

    @Test
    void aStalledServer_failsAWriteAsNotConfirmed_andAReadAsUnreachable_withinTheTimeout() {
        String key = key();
        store.claim(key, FP, 1, LEASE); // connected, scripts loaded
        server.pause();

        long started = System.nanoTime();
        assertThatThrownBy(() -> store.claim(key(), FP, 1, LEASE))
                .isInstanceOfSatisfying(
                        IdempotencyStorageException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.WRITE_NOT_CONFIRMED))
                .hasMessageContaining("it may have been applied");
        assertThatThrownBy(() -> store.find(key))
                .isInstanceOfSatisfying(
                        IdempotencyStorageException.class,
                        e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
        // Bounded: two calls, each given up after the timeout, not hung on the stalled server.
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isLessThan(Duration.ofSeconds(20));

        server.resume();

        assertThat(store.find(key)).isPresent();
    }

    @Test
    void aRestartThatLostTheScripts_isServedByResendingThem() {
        String key = key();
        ClaimResult claim = store.claim(key, FP, 1, LEASE);
        try (Jedis raw = server.connect()) {
            raw.scriptFlush();
        }

        assertThat(store.complete(key, claim.token(), ok(), LEASE)).isTrue();
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(ok());
    }

    @Test
    void aFullServerWithoutEviction_refusesNewClaimsAsRefused_andKeepsWhatItHolds() {
        String kept = key();
        ClaimResult claim = store.claim(kept, FP, 1, LEASE);
        assertThat(store.complete(kept, claim.token(), ok(), LEASE)).isTrue();
        try (Jedis raw = server.connect()) {
            raw.configSet("maxmemory-policy", "noeviction");
            raw.configSet("maxmemory", "1"); // below what it already uses: full
        }
        try {
            assertThatThrownBy(() -> store.claim(key(), FP, 1, LEASE))
                    .isInstanceOfSatisfying(
                            IdempotencyStorageException.class,
                            e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED))
                    .hasMessageContaining("maxmemory");
            assertThat(store.claim(kept, FP, 1, LEASE).status())
                    .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        } finally {
            try (Jedis raw = server.connect()) {
                raw.configSet("maxmemory", "0");
            }
        }
    }

    @Test
    void afterClose_everyOperationFailsAsAStorageError_andAnApplicationsClientStaysOpen() {
        try (redis.clients.jedis.RedisClient own =
                redis.clients.jedis.RedisClient.create(server.host(), server.port())) {
            RedisIdempotencyStore onOwn =
                    new RedisIdempotencyStore(
                            own, RedisStoreSettings.forUri(server.uri()), Clock.systemUTC());
            String key = key();
            onOwn.claim(key, FP, 1, LEASE);

            onOwn.close();
            store.close();

            assertThatThrownBy(() -> onOwn.find(key))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("the store is closed");
            assertThatThrownBy(() -> store.claim(key(), FP, 1, LEASE))
                    .isInstanceOf(IdempotencyStorageException.class);
            assertThat(own.ping()).isEqualTo("PONG");
        }
    }

    private static StoredResult ok() {
        return new StoredResult(200, List.of(), new byte[] {1, 2, 3});
    }
}
