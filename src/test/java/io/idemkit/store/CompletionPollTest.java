package io.idemkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wait of {@code awaitCompletion} (C4.3), with pauses of a minute: a wait that ends within
 * {@link #PATIENCE}, a quarter of that, was ended by a signal or by its deadline, never by its
 * poll, whatever the machine's speed.
 */
class CompletionPollTest {

    private static final String KEY = "k".repeat(64);
    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final IdempotencyRecord CLAIMED =
            IdempotencyRecord.claimed(
                    KEY, "f".repeat(64), 1, ClaimToken.random(), Instant.EPOCH, Instant.MAX);

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final AtomicInteger reads = new AtomicInteger();
    private final CountDownLatch firstRead = new CountDownLatch(1);

    @AfterEach
    void stopWaiters() {
        waiters.shutdownNow();
    }

    @Test
    void firstPauseLongerThanTheLongest_isRefused() {
        assertThatThrownBy(() -> new CompletionPoll(MINUTE.plusMillis(1), MINUTE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("firstPause must not exceed longestPause");
    }

    @Test
    void pauseNotPositive_isRefused() {
        assertThatThrownBy(() -> new CompletionPoll(Duration.ZERO, MINUTE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("firstPause must be positive");
        assertThatThrownBy(() -> new CompletionPoll(Duration.ofMillis(-1), MINUTE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("firstPause must be positive");
    }

    @Test
    void signal_endsAPauseOfAMinute_andTheWaiterReadsOnceMore() throws Exception {
        CompletionPoll poll = new CompletionPoll(MINUTE, MINUTE);
        Future<Optional<IdempotencyRecord>> waiting =
                waiters.submit(() -> poll.await(KEY, MINUTE.multipliedBy(2), this::goneAfterOne));
        assertThat(firstRead.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

        poll.signal(KEY);

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
        assertThat(reads).hasValue(2);
    }

    @Test
    void noSignal_theLastPauseEndsAtTheDeadline_notAfterTheLongestPause() throws Exception {
        CompletionPoll poll = new CompletionPoll(MINUTE, MINUTE);
        Future<Optional<IdempotencyRecord>> waiting =
                waiters.submit(() -> poll.await(KEY, Duration.ofMillis(200), first -> stillHeld()));

        assertThat(waiting.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                .as("still claimed at the deadline")
                .isEmpty();
        assertThat(reads).as("the first read, and the one at the deadline").hasValue(2);
    }

    /** The record is claimed at the first read, and gone after it. */
    private Optional<IdempotencyRecord> goneAfterOne(boolean first) {
        Optional<IdempotencyRecord> found = first ? Optional.of(CLAIMED) : Optional.empty();
        reads.incrementAndGet();
        firstRead.countDown();
        return found;
    }

    private Optional<IdempotencyRecord> stillHeld() {
        reads.incrementAndGet();
        return Optional.of(CLAIMED);
    }
}
