package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One renewal that never answers (a store call on a half-open socket, a pool with no connection to
 * give), on the heartbeat's own real threads (C4.7): the other beats go on renewing, the stuck
 * beat's owner is told before its lease could lapse, and the loss is told outside the beat's lock
 * and off the scheduler, so that a slow {@code lease_lost} observer holds up no renewal either.
 *
 * <p>Each beat here renews a lease of three beats, as {@link Execution} does; a lease "lapses" a
 * lease after the start of the last renewal that answered.
 */
class LeaseHeartbeatStallTest {

    private static final Duration BEAT = Duration.ofMillis(300);
    private static final long LEASE_NANOS = BEAT.multipliedBy(3).toNanos();

    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private final CountDownLatch stuck = new CountDownLatch(1);

    @AfterEach
    void close() {
        stuck.countDown();
        heartbeat.close();
    }

    @Test
    void oneRenewalBlocks_anotherBeatKeepsRenewing_andItsLeaseNeverLapses() {
        CountDownLatch blocked = new CountDownLatch(1);
        heartbeat.start(
                () -> {
                    blocked.countDown();
                    awaitQuietly(stuck);
                    return true;
                },
                BEAT,
                () -> {});
        Lease other = new Lease();
        heartbeat.start(other::renew, BEAT, () -> {});

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> blocked.getCount() == 0);
        int atBlock = other.renewals.get();
        Awaitility.await()
                .alias("the other beat renewed five times while the first renewal hung")
                .atMost(Duration.ofSeconds(15))
                .until(() -> other.renewals.get() >= atBlock + 5);
        assertThat(other.longestGapNanos())
                .as("the other lease never went a whole lease unrenewed")
                .isLessThan(LEASE_NANOS);
    }

    @Test
    void renewalThatHangs_toldBeforeItsLeaseCouldLapse() {
        AtomicInteger calls = new AtomicInteger();
        AtomicLong lastAnswered = new AtomicLong();
        AtomicLong toldAt = new AtomicLong();
        heartbeat.start(
                () -> {
                    long started = System.nanoTime();
                    if (calls.incrementAndGet() == 1) {
                        lastAnswered.set(started);
                        return true;
                    }
                    awaitQuietly(stuck); // the second renewal never answers
                    return true;
                },
                BEAT,
                () -> toldAt.set(System.nanoTime()));

        Awaitility.await()
                .alias("the owner was told")
                .atMost(Duration.ofSeconds(10))
                .until(() -> toldAt.get() != 0);
        assertThat(calls).hasValue(2);
        assertThat(toldAt.get())
                .as("told before the lease, last renewed by the first renewal, lapsed")
                .isLessThan(lastAnswered.get() + LEASE_NANOS);
    }

    @Test
    void everyRenewalHangs_moreBeatsThanWorkers_everyOwnerToldBeforeItsLeaseCouldLapse() {
        int beats = LeaseHeartbeat.RENEWAL_THREADS + 3;
        List<AtomicLong> told = new ArrayList<>();
        List<AtomicLong> started = new ArrayList<>();
        for (int i = 0; i < beats; i++) {
            AtomicLong toldAt = new AtomicLong();
            AtomicLong startedAt = new AtomicLong(System.nanoTime());
            told.add(toldAt);
            started.add(startedAt);
            heartbeat.start(
                    () -> {
                        awaitQuietly(stuck);
                        return true;
                    },
                    BEAT,
                    () -> toldAt.set(System.nanoTime()));
        }

        Awaitility.await()
                .alias("every owner was told")
                .atMost(Duration.ofSeconds(15))
                .until(() -> told.stream().allMatch(t -> t.get() != 0));
        for (int i = 0; i < beats; i++) {
            // The claim itself is the last confirmation: its lease lapses a lease after the start.
            assertThat(told.get(i).get())
                    .as("owner %s told before its lease could lapse", i)
                    .isLessThan(started.get(i).get() + LEASE_NANOS);
        }
    }

    @Test
    void loss_isToldOffTheBeatsLockAndOffTheScheduler_andASlowObserverHoldsUpNoRenewal() {
        AtomicReference<LeaseHeartbeat.Beat> failing = new AtomicReference<>();
        AtomicBoolean toldUnderLock = new AtomicBoolean(true);
        AtomicReference<String> toldOn = new AtomicReference<>();
        CountDownLatch observing = new CountDownLatch(1);
        failing.set(
                heartbeat.start(
                        () -> false,
                        BEAT,
                        () -> {
                            toldUnderLock.set(Thread.holdsLock(failing.get()));
                            toldOn.set(Thread.currentThread().getName());
                            observing.countDown();
                            awaitQuietly(stuck); // a lease_lost observer that takes its time
                        }));
        Lease other = new Lease();
        heartbeat.start(other::renew, BEAT, () -> {});

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> observing.getCount() == 0);
        assertThat(toldUnderLock).as("onLoss ran holding the beat's lock").isFalse();
        assertThat(toldOn.get()).doesNotStartWith("idemkit-lease-heartbeat");
        int atLoss = other.renewals.get();
        Awaitility.await()
                .alias("the other beat renewed while the observer ran")
                .atMost(Duration.ofSeconds(15))
                .until(() -> other.renewals.get() >= atLoss + 3);
    }

    @Test
    void closeWhileTheLossIsTold_waitsForIt_thenNeverInterrupts() throws Exception {
        try (LeaseHeartbeat interrupting = new LeaseHeartbeat(true)) {
            CountDownLatch telling = new CountDownLatch(1);
            CountDownLatch letGo = new CountDownLatch(1);
            List<String> order = new CopyOnWriteArrayList<>();
            LeaseHeartbeat.Beat beat =
                    interrupting.start(
                            () -> false,
                            BEAT,
                            () -> {
                                telling.countDown();
                                awaitQuietly(letGo);
                                order.add("told");
                            });
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> telling.getCount() == 0);
            Thread closing = Thread.currentThread();
            Thread releaser =
                    new Thread(
                            () -> {
                                // Lets the observer end once close is waiting for it.
                                try {
                                    Awaitility.await()
                                            .atMost(Duration.ofSeconds(10))
                                            .until(
                                                    () ->
                                                            closing.getState()
                                                                    == Thread.State.TIMED_WAITING);
                                } finally {
                                    letGo.countDown();
                                }
                            });
            releaser.start();
            beat.close();
            order.add("closed");
            assertThat(order).containsExactly("told", "closed");
            assertThat(Thread.interrupted()).as("interrupted after close").isFalse();
            releaser.join();
        }
    }

    /** A lease of three beats, renewed on time: when each renewal came. */
    private static final class Lease {
        final AtomicInteger renewals = new AtomicInteger();
        final List<Long> at = new CopyOnWriteArrayList<>(List.of(System.nanoTime()));

        boolean renew() {
            at.add(System.nanoTime());
            renewals.incrementAndGet();
            return true;
        }

        long longestGapNanos() {
            List<Long> times = new ArrayList<>(at);
            times.add(System.nanoTime());
            long longest = 0;
            for (int i = 1; i < times.size(); i++) {
                longest = Math.max(longest, times.get(i) - times.get(i - 1));
            }
            return longest;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
