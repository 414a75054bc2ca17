package io.idemkit.reactive;

import io.idemkit.IdempotencyRecordExhausted;
import io.idemkit.config.ExhaustedRecords;
import io.idemkit.core.Execution;
import io.idemkit.method.Attempts;
import io.idemkit.method.MethodPlan;
import io.idemkit.method.RecentFailures;
import io.idemkit.spi.StoredResult;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * How a record ends without a successful run (C17.4): given up after its attempts, or acknowledged
 * unrun for a reason no redelivery changes (a payload mismatch, a scope that cannot be resolved);
 * each handed to the {@link IdempotencyRecordExhausted} observers. Remembers the last failure of
 * each record, for them. Thread-safe.
 */
final class RecordOutcomes {

    /** What a given-up record stores, so that the record says so. */
    static final byte[] EXHAUSTED_MARKER = Attempts.EXHAUSTED_MARKER;

    /** The {@link IdempotencyRecordExhausted#lastFailure()} of a record refused as a mismatch. */
    static final String MISMATCH_FAILURE =
            "payload mismatch: its key was used before with another payload; not run";

    /** How the {@link IdempotencyRecordExhausted#lastFailure()} of an unscoped record begins. */
    static final String SCOPE_FAILURE = "scope unavailable: ";

    private static final System.Logger LOG = System.getLogger(RecordOutcomes.class.getName());
    private static final int DONE = 200;

    private final Consumer<IdempotencyRecordExhausted> exhausted;
    private final ExhaustedRecords mode;
    private final RecentFailures lastFailures = new RecentFailures();

    /**
     * @param exhausted fires {@link IdempotencyRecordExhausted} to the application's observers
     * @param mode what becomes of a record given up, once the observers ran
     */
    RecordOutcomes(Consumer<IdempotencyRecordExhausted> exhausted, ExhaustedRecords mode) {
        this.exhausted = exhausted;
        this.mode = mode;
    }

    /** A run of {@code key} failed with {@code failure}. */
    void failed(String key, Throwable failure) {
        lastFailures.put(key, failure);
    }

    /** A run of {@code key} succeeded. */
    void succeeded(String key) {
        lastFailures.remove(key);
    }

    /**
     * Gives a record up: its attempts are spent, by earlier deliveries ({@code failed} is {@code
     * null}: the method does not run) or by this one's last run.
     */
    Object giveUp(
            Message<?> message,
            MethodPlan plan,
            MethodForm form,
            Execution execution,
            long attempts,
            Attempt failed)
            throws Exception {
        // Its own decision, not how the claim was won (C17.4, C4.8).
        execution.markGivenUp();
        execution.keepAliveUntilEnd(execution.keepAliveOrRelease(false));
        String key = execution.operation().effectiveKey();
        RecentFailures.Failure seen = lastFailures.get(key);
        String lastFailure = seen != null ? seen.className() : RecentFailures.Failure.NOT_SEEN;
        try {
            exhausted.accept(
                    new IdempotencyRecordExhausted(
                            plan.description(), key, attempts, lastFailure, message));
        } catch (RuntimeException e) {
            execution.release();
            return failed != null ? failed.passedOn(form) : form.nothing(message.nack(e));
        }
        LOG.log(
                Level.WARNING,
                "idemkit gave up a record for "
                        + plan.description()
                        + " after "
                        + attempts
                        + " failed attempts (effective key "
                        + key
                        + ", last failure: "
                        + lastFailure
                        + "); it is "
                        + (mode == ExhaustedRecords.NACK
                                ? "nacked (idemkit.message.exhausted=nack)"
                                : "acknowledged")
                        + " and will not run again.");
        if (seen != null) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "idemkit gave up a record for "
                                    + plan.description()
                                    + " (effective key "
                                    + key
                                    + "); its last failure: "
                                    + seen.detail());
        }
        lastFailures.remove(key);
        execution.finish(new StoredResult(DONE, List.of(), EXHAUSTED_MARKER));
        if (mode == ExhaustedRecords.NACK) {
            return form.nothing(
                    failed != null
                            ? failed.nacked(message)
                            : message.nack(
                                    new IllegalStateException(
                                            "idemkit gave the record up after "
                                                    + attempts
                                                    + " failed attempts")));
        }
        if (failed != null) {
            failed.dropped();
        }
        return form.nothing(message.ack());
    }

    /**
     * Acknowledges a record without running it, for a reason a redelivery cannot change, and hands
     * it to the {@link IdempotencyRecordExhausted} observers with no attempts, so that a
     * dead-letter forward keeps it; an observer that throws nacks it (C17.4).
     */
    Object acknowledgeUnrun(
            Message<?> message,
            MethodPlan plan,
            MethodForm form,
            String effectiveKey,
            String lastFailure,
            String why) {
        try {
            exhausted.accept(
                    new IdempotencyRecordExhausted(
                            plan.description(), effectiveKey, 0, lastFailure, message));
        } catch (RuntimeException e) {
            return form.nothing(message.nack(e));
        }
        LOG.log(
                Level.WARNING,
                "idemkit acknowledged a record for "
                        + plan.description()
                        + " without running it: "
                        + why
                        + "; IdempotencyRecordExhausted observers received it.");
        return form.nothing(message.ack());
    }
}
