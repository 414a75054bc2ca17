package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.IdempotencyStorageException.Kind;
import io.idemkit.it.harness.RedisCluster;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClusterClient;

/**
 * The Redis store on a real three-master Redis Cluster the test assembles: claims racing on keys
 * spread over every master, each key won once; a master stopped mid-test fails its own keys as an
 * outage while the others' keys go on, and its keys recover when it returns.
 */
class RedisClusterStoreTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void racingClaimsOnKeysOfEveryMaster_winEachKeyOnce() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        try (RedisIdempotencyStore store =
                RedisStoreOpening.open(
                        RedisStoreSettings.forNodes(List.of(cluster.seeds().split(","))))) {
            List<String> keys = new ArrayList<>();
            Set<Integer> masters = new HashSet<>();
            while (keys.size() < 30 || masters.size() < 3) {
                String key = "race-" + UUID.randomUUID();
                keys.add(key);
                masters.add(cluster.nodeFor("idemkit:" + key).port());
            }
            int threads = 8;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            Map<String, List<ClaimStatus>> outcomes = new ConcurrentHashMap<>();
            try {
                for (String key : keys) {
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<ClaimStatus>> racers = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        Callable<ClaimStatus> racer =
                                () -> {
                                    start.await();
                                    return store.claim(key, FP, 1, LEASE).status();
                                };
                        racers.add(pool.submit(racer));
                    }
                    start.countDown();
                    List<ClaimStatus> statuses = new ArrayList<>();
                    for (Future<ClaimStatus> racer : racers) {
                        statuses.add(racer.get());
                    }
                    outcomes.put(key, statuses);
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(masters).hasSize(3);
            outcomes.forEach(
                    (key, statuses) ->
                            assertThat(statuses)
                                    .as(key)
                                    .filteredOn(s -> s == ClaimStatus.NEW)
                                    .hasSize(1));
        }
    }

    @Test
    void aStoppedMaster_failsItsKeysAsAnOutage_othersGoOn_andItsKeysRecoverWhenItReturns() {
        try (RedisCluster cluster = RedisCluster.start(3);
                RedisIdempotencyStore store =
                        RedisStoreOpening.open(
                                RedisStoreSettings.forNodes(List.of(cluster.seeds().split(",")))
                                        .withTimeout(Duration.ofSeconds(1)))) {
            String onStopped = "down-" + UUID.randomUUID();
            RedisServer stopped = cluster.nodeFor("idemkit:" + onStopped);
            String elsewhere;
            do {
                elsewhere = "up-" + UUID.randomUUID();
            } while (cluster.nodeFor("idemkit:" + elsewhere).port() == stopped.port());
            ClaimResult held = store.claim(elsewhere, FP, 1, LEASE);

            stopped.stop();

            assertThatThrownBy(() -> store.claim(onStopped, FP, 1, LEASE))
                    .isInstanceOfSatisfying(
                            IdempotencyStorageException.class,
                            e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
            assertThat(store.complete(elsewhere, held.token(), ok(), LEASE)).isTrue();

            stopped.start();
            cluster.awaitHealthy();

            assertThat(store.claim(onStopped, FP, 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.find(elsewhere).orElseThrow().result()).isEqualTo(ok());
        }
    }

    /**
     * A completion on any master wakes a waiter of another store instance, wherever that instance
     * subscribed: a publication on one node of a cluster reaches every node. B's poll pauses a
     * minute, so a waiter that returns within a quarter of that was woken.
     */
    @Test
    void aCompletionOnEveryMaster_wakesTheWaiterOfAnotherInstance() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        Duration pause = Duration.ofMinutes(1);
        RedisStoreSettings settings =
                RedisStoreSettings.forNodes(List.of(cluster.seeds().split(",")))
                        .withKeyPrefix("w" + UUID.randomUUID().toString().substring(0, 8) + ":");
        ExecutorService waiters = Executors.newCachedThreadPool();
        try (RedisClusterClient clientA =
                        RedisClusterClient.builder().nodes(cluster.nodes()).build();
                RedisClusterClient clientB =
                        RedisClusterClient.builder().nodes(cluster.nodes()).build();
                RedisIdempotencyStore a =
                        new RedisIdempotencyStore(clientA, settings, Clock.systemUTC());
                RedisIdempotencyStore b =
                        new RedisIdempotencyStore(
                                clientB,
                                settings,
                                Clock.systemUTC(),
                                new CompletionPoll(pause, pause))) {
            b.awaitCompletion("warm-up", Duration.ZERO);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(b::listening);
            Set<Integer> masters = new HashSet<>();
            while (masters.size() < 3) {
                String key = "wake-" + UUID.randomUUID();
                if (!masters.add(cluster.nodeFor(settings.keyPrefix() + key).port())) {
                    continue;
                }
                ClaimResult claim = a.claim(key, FP, 1, LEASE);
                Future<Optional<IdempotencyRecord>> waiter =
                        waiters.submit(() -> b.awaitCompletion(key, pause.multipliedBy(2)));
                Thread.sleep(500); // the waiter's first read, then its minute's pause

                a.complete(key, claim.token(), ok(), LEASE);

                assertThat(waiter.get(pause.dividedBy(4).toMillis(), TimeUnit.MILLISECONDS))
                        .as("woken for a key of the master on port %s", masters)
                        .map(IdempotencyRecord::state)
                        .contains(RecordState.COMPLETED);
            }
        } finally {
            waiters.shutdownNow();
        }
    }

    private static StoredResult ok() {
        return new StoredResult(200, List.of(), new byte[] {7});
    }
}
