package io.idemkit.store;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreArguments;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The wait of {@code awaitCompletion} (contract C4.3), one per store instance: reads the record
 * until it is completed, gone or no longer live, or until the timeout; between reads it pauses
 * first 10 ms, doubling up to 500 ms ({@link #CompletionPoll()}; other pauses through {@link
 * #CompletionPoll(Duration, Duration)}), never past the deadline. A completion, release or delete
 * that the same instance {@link #signal signals} ends the current pause at once; other JVMs are
 * seen by polling, or sooner where the store signals what it hears of them (the JDBC store on
 * PostgreSQL, through {@code LISTEN}). Thread-safe.
 */
public final class CompletionPoll {

    private static final Duration FIRST_PAUSE = Duration.ofMillis(10);
    private static final Duration LONGEST_PAUSE = Duration.ofMillis(500);

    private final long firstPauseNanos;
    private final long longestPauseNanos;
    private final CompletionSignals signals = new CompletionSignals();

    /** The bundled stores' poll: it pauses first 10 ms, doubling up to 500 ms. */
    public CompletionPoll() {
        this(FIRST_PAUSE, LONGEST_PAUSE);
    }

    /**
     * A poll that pauses first {@code firstPause}, doubling up to {@code longestPause}. A test that
     * must tell a wake-up from a poll gives it pauses far longer than its own bounds.
     *
     * @param firstPause the pause after the first read: positive, at most {@code longestPause}
     * @param longestPause the longest pause between two reads: positive
     * @throws IllegalArgumentException if a pause is not positive, or the first is the longer
     */
    public CompletionPoll(Duration firstPause, Duration longestPause) {
        Objects.requireNonNull(firstPause, "firstPause");
        Objects.requireNonNull(longestPause, "longestPause");
        if (firstPause.isNegative() || firstPause.isZero()) {
            throw new IllegalArgumentException("firstPause must be positive: " + firstPause);
        }
        if (firstPause.compareTo(longestPause) > 0) {
            throw new IllegalArgumentException(
                    "firstPause must not exceed longestPause: "
                            + firstPause
                            + " > "
                            + longestPause);
        }
        this.firstPauseNanos = StoreArguments.saturatedNanos(firstPause);
        this.longestPauseNanos = StoreArguments.saturatedNanos(longestPause);
    }

    /**
     * The bundled stores' poll with another longest pause: it pauses first 10 ms (or {@code
     * longestPause}, if shorter), doubling up to {@code longestPause}.
     *
     * @param longestPause the longest pause between two reads: positive
     * @return the poll
     * @throws IllegalArgumentException if the pause is not positive
     */
    public static CompletionPoll upTo(Duration longestPause) {
        Objects.requireNonNull(longestPause, "longestPause");
        return new CompletionPoll(
                longestPause.compareTo(FIRST_PAUSE) < 0 ? longestPause : FIRST_PAUSE, longestPause);
    }

    /** One read of the record a waiter waits on. */
    @FunctionalInterface
    public interface LiveRead {

        /**
         * @param first whether this is the wait's first read
         * @return the record if it is there, readable and live; empty otherwise
         * @throws InterruptedException if the thread is interrupted during the read
         */
        Optional<IdempotencyRecord> read(boolean first) throws InterruptedException;
    }

    /**
     * Waits until the record of {@code key} is completed or no longer live, or until {@code
     * timeout}.
     *
     * @param key a checked key
     * @param timeout a checked timeout; zero reads once
     * @param read reads the record: empty when it is absent, unreadable or no longer live
     * @return the completed record, or empty if it is gone, lapsed, or still claimed at the timeout
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public Optional<IdempotencyRecord> await(String key, Duration timeout, LiveRead read)
            throws InterruptedException {
        // Elapsed waiting is real time whatever the store clock says: a test clock cannot make a
        // thread wait less. A difference of nanoTime readings cannot overflow, a deadline could.
        long started = System.nanoTime();
        long limit = StoreArguments.saturatedNanos(timeout);
        // Subscribe before the first read, so that a change between the two is not missed.
        try (CompletionSignals.Subscription wakeUp = signals.subscribe(key)) {
            long pause = firstPauseNanos;
            boolean first = true;
            while (true) {
                Optional<IdempotencyRecord> record = read.read(first);
                if (record.isEmpty() || record.get().state() == RecordState.COMPLETED) {
                    return record;
                }
                first = false;
                long remaining = limit - (System.nanoTime() - started);
                if (remaining <= 0) {
                    return Optional.empty();
                }
                wakeUp.await(Math.min(pause, remaining));
                // min(2 * pause, longest), which cannot overflow
                pause = pause > longestPauseNanos - pause ? longestPauseNanos : pause * 2;
            }
        }
    }

    /**
     * Ends the current pause of every waiter on {@code key}: its record was completed, released or
     * deleted.
     *
     * @param key the key that changed
     */
    public void signal(String key) {
        signals.signal(key);
    }

    /**
     * Signals {@code key} when an operation changed it: the stores' completion signal after a
     * complete, release or delete that took effect (C4.3).
     *
     * @param changed whether the operation took effect
     * @param key the key it changed
     * @return {@code changed}
     */
    public boolean signalIf(boolean changed, String key) {
        if (changed) {
            signals.signal(key);
        }
        return changed;
    }

    /** Ends the current pause of every waiter: the store is closing. */
    public void signalAll() {
        signals.signalAll();
    }
}
