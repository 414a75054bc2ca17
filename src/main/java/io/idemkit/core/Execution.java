package io.idemkit.core;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A claim the caller won: the operation runs under it, then exactly one of {@link #finish}, {@link
 * #release} or {@link #hold} ends it and emits the operation's event. Every store call is fenced by
 * the claim's token, so an execution whose lease was taken over cannot change the record.
 *
 * <p>An execution belongs to the thread running the operation; only {@link #leaseLost()} may be
 * read from elsewhere, and a completion deferred to a transaction's end (C11.2) may end it on the
 * thread that ends the transaction.
 */
public final class Execution {

    private static final System.Logger LOG = System.getLogger(Execution.class.getName());

    private final IdempotencyStore store;
    private final Operation operation;
    private final ClaimToken token;
    private final Decision admission;
    private final EventEmitter events;
    private final LeaseHeartbeat heartbeat;
    private final long startedNanos;
    private final AtomicBoolean ended = new AtomicBoolean();

    /** The beat {@link #keepAliveUntilEnd} handed over, stopped when the execution ends. */
    private final AtomicReference<LeaseHeartbeat.Beat> untilEnd = new AtomicReference<>();

    private volatile boolean leaseLost;

    /**
     * The decision the execution ends with, unless the store says otherwise: how the claim was won,
     * or {@link Decision#GIVEN_UP}.
     */
    private volatile Decision decided;

    /** Why a completion inside the transaction failed, reported when the claim is released. */
    private volatile Decision failedInTransaction;

    private volatile RuntimeException storeFailureInTransaction;

    Execution(
            IdempotencyStore store,
            Operation operation,
            ClaimToken token,
            Decision admission,
            EventEmitter events,
            LeaseHeartbeat heartbeat,
            long startedNanos) {
        this.store = store;
        this.operation = operation;
        this.token = token;
        this.admission = admission;
        this.decided = admission;
        this.events = events;
        this.heartbeat = heartbeat;
        this.startedNanos = startedNanos;
    }

    /**
     * @return the operation this execution runs
     */
    public Operation operation() {
        return operation;
    }

    /**
     * @return {@code new}, {@code lease_reclaimed} or {@code corrupt_record}: how the claim was won
     */
    public Decision admission() {
        return admission;
    }

    /**
     * Says that the operation is not run under this claim but given up, its attempts exhausted (the
     * message surface, C11.3): whichever way the execution then ends, its event is {@link
     * Decision#GIVEN_UP} rather than how the claim was won, unless the store reports a failure or a
     * lost lease.
     */
    public void markGivenUp() {
        decided = Decision.GIVEN_UP;
    }

    /**
     * @return whether a heartbeat found the lease lost; the operation should stop as soon as it
     *     can, since another executor may now run it
     */
    public boolean leaseLost() {
        return leaseLost;
    }

    /**
     * Renews the lease every third of its length until the returned beat is closed. When a renewal
     * fails, or does not answer by its deadline ({@link LeaseHeartbeat#renewalDeadline}), {@link
     * #leaseLost()} turns true and, if the heartbeat is so configured, the calling thread is
     * interrupted.
     *
     * @return the running beat; close it on this thread when the operation returns
     */
    public LeaseHeartbeat.Beat keepAlive() {
        return keepAlive(true);
    }

    /**
     * Like {@link #keepAlive()}, for an operation that may continue on other threads.
     *
     * @param mayInterrupt whether a lost lease may interrupt the calling thread
     * @return the running beat; close it when the operation ends
     */
    public LeaseHeartbeat.Beat keepAlive(boolean mayInterrupt) {
        Duration lease = operation.policy().leaseTtl();
        return heartbeat.start(
                () -> store.renew(operation.effectiveKey(), token, lease),
                LeaseHeartbeat.interval(lease),
                this::loseLease,
                mayInterrupt);
    }

    /**
     * Like {@link #keepAlive(boolean)}; when the beat cannot start (the heartbeat closed at
     * undeploy), the claim is released at once rather than left to its lease, and the exception
     * reaches the caller, whose operation must not run.
     *
     * @param mayInterrupt whether a lost lease may interrupt the calling thread
     * @return the running beat; close it when the operation ends
     */
    public LeaseHeartbeat.Beat keepAliveOrRelease(boolean mayInterrupt) {
        try {
            return keepAlive(mayInterrupt);
        } catch (RuntimeException e) {
            release();
            throw e;
        }
    }

    /**
     * Hands {@code beat} over to the end of this execution, for an operation that has returned but
     * whose completion is written later: after its transaction commits (C11.2), or once its
     * response has been written. The beat goes on renewing the lease until then, so that a slow
     * commit or write does not let a duplicate take the claim over and run the operation again; it
     * never interrupts again ({@link LeaseHeartbeat.Beat#handOver()}), and whichever of {@link
     * #finish}, {@link #release}, {@link #hold}, {@link #confirmCommitted} or {@link
     * #releaseIfUnended} ends the execution stops it first, before it writes, on whatever thread it
     * runs. A lease lost meanwhile is said as while the operation ran ({@link #leaseLost()}, {@code
     * lease_lost}, C4.7, C4.8), and the completion's token decides the rest (C4.5). Call it on the
     * thread that started the beat.
     *
     * @param beat the operation's beat, from {@link #keepAlive}
     */
    public void keepAliveUntilEnd(LeaseHeartbeat.Beat beat) {
        beat.handOver();
        untilEnd.set(beat);
        if (ended.get()) {
            stopBeat(); // ended meanwhile, on the thread that ended the transaction
        }
    }

    /** The heartbeat found the lease lost: say so once (C4.7, C4.8). */
    private void loseLease() {
        if (!leaseLost) {
            leaseLost = true;
            events.emit(Decision.LEASE_LOST, operation, startedNanos);
        }
    }

    /**
     * Ends the execution with the operation's outcome: stores the policy's redacted copy of it when
     * the policy finds it cacheable, and otherwise releases the claim. {@code result} itself is
     * never changed, so the caller delivers the original (C4.10).
     *
     * @param result the outcome, unredacted
     * @return what became of it
     */
    public FinishOutcome finish(StoredResult result) {
        end();
        if (!operation.policy().cacheable().isCacheable(result)) {
            releaseClaim();
            events.emit(decided, operation, startedNanos);
            return FinishOutcome.RELEASED;
        }
        StoredResult redacted;
        try {
            redacted =
                    Objects.requireNonNull(
                            operation.policy().redactor().redact(result), "redacted result");
        } catch (RuntimeException | Error e) {
            // A LinkageError (a class the redactor needs is missing) is the redactor's failure
            // like any exception: the operation ran, and its caller must still get its result.
            // Only the JVM's own trouble travels on.
            failRedaction(e);
            if (e instanceof VirtualMachineError error) {
                throw error;
            }
            return FinishOutcome.REDACTION_FAILED;
        }
        boolean stored;
        try {
            stored =
                    store.complete(
                            operation.effectiveKey(),
                            token,
                            redacted,
                            operation.policy().completedTtl());
        } catch (RuntimeException e) {
            // The side effect already happened. Releasing would let an immediate retry run it
            // again, so the claim stays and its lease decides when a retry may run.
            LOG.log(
                    Level.WARNING,
                    "idemkit could not store a result ("
                            + e.getMessage()
                            + "); the claim is held until its lease runs out, so duplicates"
                            + " wait instead of running again, and run once it has. Check the"
                            + " store; if the operation must not repeat, reconcile it.");
            events.emitStoreFailure(Decision.COMPLETE_FAILED, operation, startedNanos, e);
            return FinishOutcome.STORE_FAILED;
        }
        if (!stored) {
            LOG.log(
                    Level.WARNING,
                    "idemkit discarded a result: the lease of key "
                            + operation.effectiveKey()
                            + " ran out and was taken over while the operation ran. Raise the"
                            + " lease TTL above the operation's longest run.");
            events.emit(Decision.LEASE_RECLAIMED_LOSS, operation, startedNanos);
            return FinishOutcome.LOST;
        }
        events.emit(decided, operation, startedNanos);
        return FinishOutcome.STORED;
    }

    /**
     * Completes the record inside the caller's JTA transaction (C13): the policy's redacted copy of
     * {@code result}, through {@link IdempotencyStore#completeInTransaction}, so that it commits or
     * rolls back with the business writes. The execution does not end here: {@link
     * #confirmCommitted} ends it once the transaction has committed, {@link #release} once it has
     * rolled back. On any outcome but {@link FinishOutcome#STORED} the caller must roll the
     * transaction back; {@link FinishOutcome#RELEASED} means the result is not cacheable, and
     * nothing was written.
     *
     * @param result the outcome, unredacted
     * @return {@code STORED}, {@code RELEASED} (not cacheable), {@code LOST} (the lease was taken
     *     over), {@code STORE_FAILED} or {@code REDACTION_FAILED}
     */
    public FinishOutcome completeInTransaction(StoredResult result) {
        if (ended.get()) {
            throw new IllegalStateException("this execution has already ended");
        }
        if (!operation.policy().cacheable().isCacheable(result)) {
            return FinishOutcome.RELEASED;
        }
        StoredResult redacted;
        try {
            redacted =
                    Objects.requireNonNull(
                            operation.policy().redactor().redact(result), "redacted result");
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit stored no result for key "
                            + operation.effectiveKey()
                            + ": its redactor threw "
                            + e.getClass().getName()
                            + ". The transaction is rolled back, and the claim released. Fix the"
                            + " IdempotencyRedactor.");
            failedInTransaction = Decision.REDACTION_FAILED;
            return FinishOutcome.REDACTION_FAILED;
        }
        boolean stored;
        try {
            stored =
                    store.completeInTransaction(
                            operation.effectiveKey(),
                            token,
                            redacted,
                            operation.policy().completedTtl());
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit could not complete a record inside the transaction ("
                            + e.getMessage()
                            + "); the transaction is rolled back, and the claim released.");
            failedInTransaction = Decision.COMPLETE_FAILED;
            storeFailureInTransaction = e;
            return FinishOutcome.STORE_FAILED;
        }
        if (!stored) {
            LOG.log(
                    Level.WARNING,
                    "idemkit rolled back a transaction: the lease of key "
                            + operation.effectiveKey()
                            + " ran out and was taken over while the operation ran, so its"
                            + " writes must not commit. Raise the lease TTL above the operation's"
                            + " longest run.");
            failedInTransaction = Decision.LEASE_RECLAIMED_LOSS;
            return FinishOutcome.LOST;
        }
        return FinishOutcome.STORED;
    }

    /**
     * Ends an execution whose record {@link #completeInTransaction} completed, once the transaction
     * has committed: the record is {@code COMPLETED} already, so nothing is written; the store is
     * told, so that it wakes the duplicates that wait for the record ({@link
     * IdempotencyStore#completionCommitted}).
     *
     * @return {@link FinishOutcome#STORED}
     */
    public FinishOutcome confirmCommitted() {
        end();
        try {
            store.completionCommitted(operation.effectiveKey());
        } catch (RuntimeException e) {
            // Best effort by its contract: the duplicates find the record at their next poll.
        }
        events.emit(decided, operation, startedNanos);
        return FinishOutcome.STORED;
    }

    /**
     * The redactor failed: storing the unredacted result could leak what it was meant to remove, so
     * nothing is stored and the claim is released, and a retry runs again (C4.10). The warning
     * names the exception's class only: its message could echo the data.
     */
    private void failRedaction(Throwable failure) {
        releaseClaim();
        LOG.log(
                Level.WARNING,
                "idemkit stored no result for key "
                        + operation.effectiveKey()
                        + ": its redactor threw "
                        + failure.getClass().getName()
                        + ". The claim is released, so a retry runs the operation again, and the"
                        + " caller got its result. Fix the IdempotencyRedactor.");
        events.emit(Decision.REDACTION_FAILED, operation, startedNanos);
    }

    /**
     * Ends the execution without an outcome (the operation threw, or was abandoned), releasing the
     * claim at once so that a retry can run.
     *
     * @return {@link FinishOutcome#RELEASED}
     */
    public FinishOutcome release() {
        end();
        releaseClaim();
        if (storeFailureInTransaction != null) {
            events.emitStoreFailure(
                    failedInTransaction, operation, startedNanos, storeFailureInTransaction);
        } else {
            events.emit(
                    failedInTransaction != null ? failedInTransaction : decided,
                    operation,
                    startedNanos);
        }
        return FinishOutcome.RELEASED;
    }

    /**
     * Ends the execution keeping the claim until its lease runs out, for an outcome that happened
     * but cannot be stored: an immediate retry must not run the side effect again.
     *
     * @return {@link FinishOutcome#HELD}
     */
    public FinishOutcome hold() {
        end();
        events.emit(decided, operation, startedNanos);
        return FinishOutcome.HELD;
    }

    /**
     * @return whether the execution has ended: finished, released or held
     */
    public boolean ended() {
        return ended.get();
    }

    /**
     * Releases the claim unless the execution has already ended, for a surface that learns only
     * afterwards that its operation was abandoned: a JAX-RS request that ended on an exception no
     * mapper handled never reaches the response filter (contract C6.7). Safe to call from any
     * thread, and any number of times.
     *
     * @return whether this call ended the execution
     */
    public boolean releaseIfUnended() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        stopBeat();
        releaseClaim();
        events.emit(decided, operation, startedNanos);
        return true;
    }

    private void end() {
        if (!ended.compareAndSet(false, true)) {
            throw new IllegalStateException("this execution has already ended");
        }
        stopBeat();
    }

    /**
     * Stops a beat handed over, before the end's write: a renewal that ran beside the completion
     * would find the record no longer claimed and report a lost lease that was not lost.
     */
    private void stopBeat() {
        LeaseHeartbeat.Beat beat = untilEnd.getAndSet(null);
        if (beat != null) {
            beat.close();
        }
    }

    private void releaseClaim() {
        try {
            store.release(operation.effectiveKey(), token);
        } catch (RuntimeException e) {
            // Best effort: the lease expiry frees the key anyway.
            LOG.log(
                    Level.WARNING,
                    "idemkit could not release a claim ("
                            + e.getMessage()
                            + "); the key frees itself when the lease runs out, and duplicates"
                            + " wait or get 'in progress' until then. Check the store.");
        }
    }
}
