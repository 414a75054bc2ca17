package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a beat (C4.7) while its renewal runs waits for that renewal, bounded: what the operation
 * does next may lock the record's row (a completion inside the business transaction, C13), and a
 * renewal left running would wait behind that lock and fail the lease of an operation about to
 * complete. What a stuck renewal does to the other beats: {@link LeaseHeartbeatStallTest}.
 */
class LeaseHeartbeatTest {

    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void closeHeartbeat() {
        release.countDown();
        heartbeat.close();
    }

    @Test
    void closeWhileARenewalRuns_returnsOnlyOnceTheRenewalEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        LeaseHeartbeat.Beat beat =
                heartbeat.start(
                        () -> {
                            started.countDown();
                            await(release);
                            ended.set(true);
                            return true;
                        },
                        Duration.ofSeconds(1),
                        () -> {});
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Boolean> closed =
                CompletableFuture.supplyAsync(
                        () -> {
                            beat.close();
                            return ended.get();
                        });

        Awaitility.await()
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .until(() -> !closed.isDone());
        release.countDown();
        assertThat(closed.get(5, TimeUnit.SECONDS))
                .as("the renewal had ended when close returned")
                .isTrue();
    }

    @Test
    void closeWhileARenewalHangs_givesUpAfterOneBeat() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        LeaseHeartbeat.Beat beat =
                heartbeat.start(
                        () -> {
                            started.countDown();
                            await(release);
                            return true;
                        },
                        Duration.ofMillis(200),
                        () -> {});
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closed = CompletableFuture.runAsync(beat::close);

        Awaitility.await().atMost(Duration.ofSeconds(3)).until(closed::isDone);
        assertThat(release.getCount()).as("the renewal still runs").isEqualTo(1);
    }

    @Test
    void closedBeat_renewsNoMore() {
        AtomicInteger renewals = new AtomicInteger();
        LeaseHeartbeat.Beat beat =
                heartbeat.start(
                        () -> renewals.incrementAndGet() > 0, Duration.ofMillis(100), () -> {});
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> renewals.get() >= 2);

        beat.close();
        int atClose = renewals.get();

        Awaitility.await()
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(2))
                .until(() -> renewals.get() == atClose);
    }

    @Test
    void handedOverBeat_renewsOn_saysALoss_butNeverInterruptsItsOwner() throws Exception {
        try (LeaseHeartbeat interrupting = new LeaseHeartbeat(true)) {
            AtomicInteger renewals = new AtomicInteger();
            AtomicBoolean lost = new AtomicBoolean();
            LeaseHeartbeat.Beat beat =
                    interrupting.start(
                            () -> renewals.incrementAndGet() < 3,
                            Duration.ofMillis(100),
                            () -> lost.set(true));

            // The operation returned; its completion waits for a commit on this thread (C11.2).
            beat.handOver();

            Awaitility.await().atMost(Duration.ofSeconds(5)).untilTrue(lost);
            assertThat(renewals.get()).isEqualTo(3);
            assertThat(Thread.interrupted()).as("the committing thread was interrupted").isFalse();
            CompletableFuture.runAsync(beat::close).get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void handOver_clearsAnInterruptTheBeatRaisedBefore() throws Exception {
        try (LeaseHeartbeat interrupting = new LeaseHeartbeat(true)) {
            AtomicBoolean lost = new AtomicBoolean();
            LeaseHeartbeat.Beat beat =
                    interrupting.start(() -> false, Duration.ofMillis(100), () -> lost.set(true));
            Awaitility.await().atMost(Duration.ofSeconds(5)).untilTrue(lost);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();

            beat.handOver();

            assertThat(Thread.interrupted()).isFalse();
            beat.close();
        }
    }

    @Test
    void closeWaitIsOneBeat_atMostFiveSeconds() {
        assertThat(LeaseHeartbeat.closeWait(Duration.ofMillis(200)))
                .isEqualTo(Duration.ofMillis(200));
        assertThat(LeaseHeartbeat.closeWait(Duration.ofMinutes(1)))
                .isEqualTo(Duration.ofSeconds(5));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
