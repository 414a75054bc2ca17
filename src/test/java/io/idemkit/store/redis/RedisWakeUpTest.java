package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Wake-ups across store instances on a real Redis (C4.3): two stores on one server, each on a
 * client of its own as two nodes would be, a duplicate waiting on instance B while instance A
 * completes, releases or deletes the key.
 *
 * <p>The tests tell a push from a poll without depending on the machine's speed: B's waiters pause
 * {@link #PAUSE}, a minute, between two reads, and wait longer than that. B is subscribed before a
 * waiter starts, so a waiter that returns within {@link #WOKEN_WITHIN}, a quarter of its pause, was
 * woken by A's announcement. How soon an announcement arrives is the benchmark's to measure, not a
 * test's.
 */
class RedisWakeUpTest {

    private static final Duration PAUSE = Duration.ofMinutes(1);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Duration WOKEN_WITHIN = PAUSE.dividedBy(4);
    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final String FP = "f".repeat(64);

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private RedisServer server;
    private RedisClient clientA;
    private RedisClient clientB;
    private RedisIdempotencyStore a;
    private RedisIdempotencyStore b;
    private String prefix;

    @BeforeEach
    void twoInstances() {
        server = RedisServer.shared();
        prefix = "w" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisStoreSettings settings = RedisStoreSettings.forUri(server.uri()).withKeyPrefix(prefix);
        clientA = RedisClient.create(server.host(), server.port());
        clientB = RedisClient.create(server.host(), server.port());
        a = new RedisIdempotencyStore(clientA, settings, Clock.systemUTC());
        b =
                new RedisIdempotencyStore(
                        clientB, settings, Clock.systemUTC(), new CompletionPoll(PAUSE, PAUSE));
    }

    @AfterEach
    void close() {
        waiters.shutdownNow();
        a.close();
        b.close();
        clientA.close();
        clientB.close();
    }

    /** B subscribes with its first wait; that one's wake-up is spent before a test's waiter. */
    private void bListening() throws InterruptedException {
        b.awaitCompletion("warm-up", Duration.ZERO);
        await().atMost(Duration.ofSeconds(10)).until(b::listening);
    }

    private Future<Optional<IdempotencyRecord>> waiterOnB(String key) {
        return waiters.submit(() -> b.awaitCompletion(key, WAIT));
    }

    @Test
    void aCompletionOnA_wakesTheWaiterOnB_longBeforeItsNextPoll() throws Exception {
        bListening();
        String key = "k" + UUID.randomUUID();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiter = waiterOnB(key);
        Thread.sleep(500); // let the waiter make its first read and pause

        a.complete(key, claim.token(), result(), LEASE);

        Optional<IdempotencyRecord> found =
                waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(found).map(IdempotencyRecord::state).contains(RecordState.COMPLETED);
    }

    @Test
    void aReleaseOnA_wakesTheWaiterOnB_withNothingToReplay() throws Exception {
        bListening();
        String key = "k" + UUID.randomUUID();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiter = waiterOnB(key);
        Thread.sleep(500);

        a.release(key, claim.token());

        assertThat(waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
    }

    @Test
    void withNotificationsOff_aCompletionOnA_leavesTheWaiterOnBToItsPoll() throws Exception {
        bListening();
        RedisIdempotencyStore quiet =
                new RedisIdempotencyStore(
                        clientA,
                        RedisStoreSettings.forUri(server.uri())
                                .withKeyPrefix(prefix)
                                .withNotifications(false),
                        Clock.systemUTC());
        String key = "k" + UUID.randomUUID();
        ClaimResult claim = quiet.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiter = waiterOnB(key);
        Thread.sleep(1_000);

        quiet.complete(key, claim.token(), result(), LEASE);

        Thread.sleep(2_000);
        assertThat(waiter).isNotDone();
        quiet.close();
    }

    @Test
    void afterTheServerRestarts_BSubscribesAgain_andIsWokenAgain() throws Exception {
        try (RedisServer own = RedisServer.builder().start()) {
            RedisStoreSettings settings = RedisStoreSettings.forUri(own.uri());
            try (RedisClient ca = RedisClient.create(own.host(), own.port());
                    RedisClient cb = RedisClient.create(own.host(), own.port())) {
                RedisIdempotencyStore ownA =
                        new RedisIdempotencyStore(ca, settings, Clock.systemUTC());
                RedisIdempotencyStore ownB =
                        new RedisIdempotencyStore(
                                cb, settings, Clock.systemUTC(), new CompletionPoll(PAUSE, PAUSE));
                assertThat(ownB.health().details())
                        .containsEntry(
                                "notifications", "idle (subscribes when a duplicate first waits)");
                ownB.awaitCompletion("warm-up", Duration.ZERO);
                await().atMost(Duration.ofSeconds(10)).until(ownB::listening);
                assertThat(ownB.health().details()).containsEntry("notifications", "listening");

                own.stop();
                await().atMost(Duration.ofSeconds(10)).until(() -> !ownB.listening());
                own.start();
                await().atMost(Duration.ofSeconds(45)).until(ownB::listening);

                String key = "k" + UUID.randomUUID();
                ClaimResult claim = ownA.claim(key, FP, 1, LEASE);
                Future<Optional<IdempotencyRecord>> waiter =
                        waiters.submit(() -> ownB.awaitCompletion(key, WAIT));
                Thread.sleep(500);
                ownA.complete(key, claim.token(), result(), LEASE);

                assertThat(waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS))
                        .map(IdempotencyRecord::state)
                        .contains(RecordState.COMPLETED);
                ownA.close();
                ownB.close();
            }
        }
    }

    private static StoredResult result() {
        return new StoredResult(200, List.of(), new byte[] {42});
    }
}
