package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Real threads claim, run and complete many more keys than the store holds, so that it evicts all
 * the time (C10.2): no claim in progress is ever evicted (its owner's completion always finds it),
 * no key ever runs twice at once, no new key is refused while the claims in progress leave room
 * (C10.3), and the counts match what is held when the threads are done (C10.1).
 */
class InMemoryEvictionRaceTest {

    private static final int THREADS = 8;
    private static final int KEYS = 64;
    private static final int CLAIMS_PER_THREAD = 2_000;
    private static final Duration LONG = Duration.ofHours(1);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void claimsWhileTheEntryCountEvicts_loseNoClaimAndRunNoKeyTwiceAtOnce() throws Exception {
        // Room for every thread's claim twice over, and for far fewer results than keys.
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, 2 * THREADS, Long.MAX_VALUE, null)) {
            race(store, new StoredResult(200, List.of(), new byte[16]));
        }
    }

    @Test
    void claimsWhileTheByteBudgetEvicts_loseNoClaimAndRunNoKeyTwiceAtOnce() throws Exception {
        StoredResult result = new StoredResult(200, List.of(), new byte[2_000]);
        long perResult = MemoryBudget.ENTRY_OVERHEAD_BYTES + 8 + 2 + 2_000;
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, 1_000, 2 * THREADS * perResult, null)) {
            race(store, result);
        }
    }

    /**
     * Completions and deletes (nine in ten) race with a sweeper that trims the eviction order, so
     * that what left the store outnumbers what it holds and the order is swept, by the sweeper and
     * by completions: what left does not pile up, and every completed record still held stays
     * evictable (filling the store afterwards evicts each one, refusing no new key).
     */
    @Test
    void completionsDeletesAndSweeps_leaveEveryHeldResultEvictable() throws Exception {
        int room = 4_096;
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, room, Long.MAX_VALUE, Duration.ofMillis(1))) {
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    String prefix = "t" + t + "-";
                    done.add(
                            pool.submit(
                                    () -> {
                                        for (int i = 0; i < CLAIMS_PER_THREAD; i++) {
                                            String key = prefix + i;
                                            ClaimResult claim = store.claim(key, "fp", 1, LONG);
                                            store.complete(
                                                    key,
                                                    claim.token(),
                                                    new StoredResult(200, List.of(), new byte[1]),
                                                    LONG);
                                            if (ThreadLocalRandom.current().nextInt(10) > 0) {
                                                store.delete(key);
                                            }
                                        }
                                        return null;
                                    }));
                }
                for (Future<?> future : done) {
                    future.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            int held = store.size();
            assertThat(store.evictionOrderLength())
                    .isLessThanOrEqualTo(2 * held + MemoryBudget.STALE_SLACK + THREADS);

            assertThat(held).isPositive().isLessThan(room);
            // Every entry is a completed result: new keys take the free room, then evict them.
            for (int i = 0; i < room; i++) {
                assertThat(store.claim("after-" + i, "fp", 1, LONG).status())
                        .isEqualTo(ClaimStatus.NEW);
            }
            assertThat(store.size()).isEqualTo(room);
        }
    }

    private static void race(InMemoryIdempotencyStore store, StoredResult result) throws Exception {
        AtomicIntegerArray running = new AtomicIntegerArray(KEYS);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                runs.add(
                        threads.submit(
                                () -> {
                                    start.await();
                                    return claimAndRun(store, result, running, failures);
                                }));
            }
            start.countDown();
            int ran = 0;
            for (Future<Integer> run : runs) {
                ran += run.get(60, TimeUnit.SECONDS);
            }

            assertThat(failures).isEmpty();
            assertThat(ran).isGreaterThan(KEYS);
            assertThat((Long) store.health().details().get("evictions")).isPositive();
            assertThat(store.health().details()).containsEntry("refusals", 0L);
            long bytes = 0;
            int held = 0;
            for (int k = 0; k < KEYS; k++) {
                Optional<IdempotencyRecord> record = store.find(key(k));
                if (record.isPresent()) {
                    held++;
                    bytes += MemoryBudget.footprint(record.get());
                }
            }
            assertThat(store.size()).isEqualTo(held);
            assertThat(store.bytes()).isEqualTo(bytes).isLessThanOrEqualTo(store.maxBytes());
        } finally {
            threads.shutdownNow();
        }
    }

    /** One thread's claims; returns how many it ran. */
    private static int claimAndRun(
            InMemoryIdempotencyStore store,
            StoredResult result,
            AtomicIntegerArray running,
            ConcurrentLinkedQueue<String> failures) {
        int ran = 0;
        for (int i = 0; i < CLAIMS_PER_THREAD; i++) {
            int k = ThreadLocalRandom.current().nextInt(KEYS);
            ClaimResult claim;
            try {
                claim = store.claim(key(k), "fp", 1, LONG);
            } catch (RuntimeException e) {
                failures.add("claim refused: " + e.getMessage());
                continue;
            }
            if (!claim.status().won()) {
                continue;
            }
            ran++;
            if (running.incrementAndGet(k) != 1) {
                failures.add("two runs of " + key(k) + " at once");
            }
            Thread.yield();
            running.decrementAndGet(k);
            // The claim is still held, so its completion is fenced through (C2).
            if (!store.complete(key(k), claim.token(), result, LONG)) {
                failures.add("the claim of " + key(k) + " was lost");
            }
        }
        return ran;
    }

    private static String key(int k) {
        return String.format("key-%04d", k);
    }
}
