package io.idemkit.core;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The surface-neutral state machine (contract C4): claim first, run only on a won claim, replay a
 * completed result with a matching fingerprint, make duplicates of an in-flight call wait and
 * replay, and emit exactly one event per operation.
 *
 * <p>Surfaces that wrap the operation structurally (the JAX-RS filter pair) use {@link #admit} and
 * then end the {@link Execution} themselves; surfaces that can call the operation use {@link
 * #execute}. Thread-safe: one engine serves every operation of an application.
 */
public final class IdempotencyEngine implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(IdempotencyEngine.class.getName());

    /** The pause after a contended claim, doubling up to the next constant (as C4.3's poll). */
    private static final long FIRST_CONTENDED_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long MAX_CONTENDED_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private static final long WAITERS_WARNING_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final IdempotencyStore store;
    private final EventEmitter events;
    private final LeaseHeartbeat heartbeat;
    private final Ticker ticker;
    private final KeyWaiters waiters;
    private final KeyGate reclaims = new KeyGate();
    private final AtomicReference<Long> lastWaitersWarning = new AtomicReference<>();

    /**
     * An engine that lets at most {@value KeyWaiters#DEFAULT_LIMIT} threads wait on one key.
     *
     * @param store where records live
     * @param events receives the one event of every operation
     * @param heartbeat renews long operations' leases
     * @param ticker measures waits and latency
     */
    public IdempotencyEngine(
            IdempotencyStore store,
            Consumer<IdempotencyEvent> events,
            LeaseHeartbeat heartbeat,
            Ticker ticker) {
        this(store, events, heartbeat, ticker, KeyWaiters.DEFAULT_LIMIT);
    }

    /**
     * @param store where records live
     * @param events receives the one event of every operation
     * @param heartbeat renews long operations' leases
     * @param ticker measures waits and latency
     * @param maxWaitersPerKey the most threads that may wait on one key for an in-flight call at
     *     once, at least 1 ({@code idemkit.max-waiters-per-key}); a duplicate past it is answered
     *     "in progress" at once, as a wait that timed out is (C4.3)
     * @throws IllegalArgumentException if {@code maxWaitersPerKey} is below 1
     */
    public IdempotencyEngine(
            IdempotencyStore store,
            Consumer<IdempotencyEvent> events,
            LeaseHeartbeat heartbeat,
            Ticker ticker,
            int maxWaitersPerKey) {
        this.store = Objects.requireNonNull(store, "store");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.heartbeat = Objects.requireNonNull(heartbeat, "heartbeat");
        this.events = new EventEmitter(events, store.name(), ticker);
        this.waiters = new KeyWaiters(maxWaitersPerKey);
    }

    /**
     * @return the store this engine uses
     */
    public IdempotencyStore store() {
        return store;
    }

    /**
     * Decides what to do with an operation: claims its key, and waits for an in-flight duplicate up
     * to the policy's wait timeout.
     *
     * @param operation the operation
     * @return proceed (the caller now holds the claim and must end the execution), replay, or run
     *     unprotected (the store failed under fail-open)
     * @throws IdempotencyPayloadMismatchException if the key was used with another fingerprint, or
     *     its result is of another fingerprint version
     * @throws IdempotencyInProgressException if an in-flight call did not complete in time, or a
     *     call of another fingerprint version is in flight (not waited for, C4.2), or the store
     *     stayed {@link IdempotencyStorageException.Kind#CONTENDED contended} until then (never run
     *     unprotected, C4.6), or as many threads as the engine allows wait on the key already
     *     (answered at once, as a wait that timed out)
     * @throws IdempotencyStorageException if the store failed under fail-closed
     */
    public Admission admit(Operation operation) {
        Objects.requireNonNull(operation, "operation");
        long started = ticker.nanos();
        long deadline = started + operation.policy().waitTimeout().toNanos();
        long waitStarted = -1;
        boolean counted = false;
        try {
            long contendedPause = FIRST_CONTENDED_PAUSE_NANOS;
            long unchangedPause = FIRST_CONTENDED_PAUSE_NANOS;
            ClaimToken waitedFor = null;
            while (true) {
                ClaimResult claim;
                try {
                    claim = claim(operation, counted, deadline);
                    if (claim == null) {
                        throw inProgress(operation, null, waitStarted, started);
                    }
                } catch (IdempotencyStorageException e) {
                    if (e.kind() != IdempotencyStorageException.Kind.CONTENDED) {
                        throw e;
                    }
                    // The key is busy, not the store down (C4.6): wait as for a claim in
                    // flight, and never run unprotected on it.
                    long remaining = deadline - ticker.nanos();
                    if (remaining <= 0) {
                        throw inProgress(operation, null, waitStarted, started);
                    }
                    counted = counted || countWaiter(operation, null, started);
                    waitStarted = waitBegun(operation, waitStarted, started);
                    TimeUnit.NANOSECONDS.sleep(Math.min(contendedPause, remaining));
                    contendedPause = Math.min(contendedPause * 2, MAX_CONTENDED_PAUSE_NANOS);
                    continue;
                }
                IdempotencyRecord record = claim.record();
                switch (claim.status()) {
                    case NEW, LEASE_RECLAIMED -> {
                        return new Admission.Proceed(
                                new Execution(
                                        store,
                                        operation,
                                        claim.token(),
                                        admissionDecision(claim),
                                        events,
                                        heartbeat,
                                        started));
                    }
                    case ALREADY_COMPLETED -> {
                        requireSamePayload(operation, record, started);
                        return replay(operation, record, waitStarted, started);
                    }
                    case ALREADY_CLAIMED -> {
                        if (record.fingerprintVersion() != operation.fingerprintVersion()) {
                            // A node of another release runs it (a rolling upgrade, C4.2): in
                            // progress, not waited for, since its result will not be replayed.
                            throw inProgress(operation, record, waitStarted, started);
                        }
                        requireSamePayload(operation, record, started);
                        long remaining = deadline - ticker.nanos();
                        if (remaining <= 0) {
                            throw inProgress(operation, record, waitStarted, started);
                        }
                        counted = counted || countWaiter(operation, record, started);
                        waitStarted = waitBegun(operation, waitStarted, started);
                        if (Objects.equals(record.token(), waitedFor)) {
                            // The last wait ended, yet the same claim holds the key: its lease
                            // lapsed under a holder still completing it (C13). Pause, as after a
                            // contended claim, rather than claim again at once.
                            TimeUnit.NANOSECONDS.sleep(Math.min(unchangedPause, remaining));
                            unchangedPause =
                                    Math.min(unchangedPause * 2, MAX_CONTENDED_PAUSE_NANOS);
                            remaining = deadline - ticker.nanos();
                            if (remaining <= 0) {
                                throw inProgress(operation, record, waitStarted, started);
                            }
                        }
                        waitedFor = record.token();
                        Optional<IdempotencyRecord> completed =
                                store.awaitCompletion(
                                        operation.effectiveKey(), Duration.ofNanos(remaining));
                        if (completed.isPresent()) {
                            requireSamePayload(operation, completed.get(), started);
                            return replay(operation, completed.get(), waitStarted, started);
                        }
                        // Released, vanished, expired or timed out: claim again, which either
                        // wins the key or finds the next state of it.
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            events.emitAfterWait(Decision.CONFLICT, operation, started, waitedNanos(waitStarted));
            throw new IdempotencyInProgressException(operation.policy().leaseTtl());
        } catch (IdempotencyPayloadMismatchException | IdempotencyInProgressException e) {
            throw e;
        } catch (RuntimeException e) {
            return storageFailure(operation, e, started);
        } finally {
            if (counted) {
                waiters.leave(operation.effectiveKey());
            }
        }
    }

    /**
     * Claims the operation's key; a thread that waits on the key already ({@code waiting}) claims
     * only through the key's gate ({@link KeyGate}), so that the waiters of one key hold at most
     * one pooled connection at a time.
     *
     * @return the claim, or {@code null} when the gate stayed shut until the deadline
     */
    private ClaimResult claim(Operation operation, boolean waiting, long deadline)
            throws InterruptedException {
        String key = operation.effectiveKey();
        if (waiting && !reclaims.enter(key, deadline - ticker.nanos())) {
            return null;
        }
        try {
            return store.claim(
                    key,
                    operation.fingerprint(),
                    operation.fingerprintVersion(),
                    operation.policy().leaseTtl());
        } finally {
            if (waiting) {
                reclaims.leave(key);
            }
        }
    }

    /**
     * Counts this thread in as a waiter on the operation's key, or, when the key has as many as the
     * engine allows, answers as a wait that timed out would: in progress (C4.3), never a run.
     *
     * @param record the claim in flight, or {@code null} when the store was contended
     * @return {@code true}: the thread is counted, and must be counted out when admission ends
     * @throws IdempotencyInProgressException if the key has as many waiters as allowed
     */
    private boolean countWaiter(Operation operation, IdempotencyRecord record, long started) {
        if (waiters.enter(operation.effectiveKey())) {
            return true;
        }
        warnOfWaiters(operation);
        throw inProgress(operation, record, -1, started);
    }

    /** At most once a minute: a flood of one key is worth a look, but not a line per request. */
    private void warnOfWaiters(Operation operation) {
        long now = ticker.nanos();
        Long last = lastWaitersWarning.get();
        if ((last != null && now - last < WAITERS_WARNING_NANOS)
                || !lastWaitersWarning.compareAndSet(last, now)) {
            return;
        }
        LOG.log(
                Level.WARNING,
                "idemkit answered 'in progress' without waiting to a duplicate of effective key "
                        + operation.effectiveKey()
                        + ": "
                        + waiters.limit()
                        + " threads wait on that key already (idemkit.max-waiters-per-key). Many"
                        + " concurrent requests with one key are a misbehaving client or a flood;"
                        + " this warning repeats at most once a minute.");
    }

    /**
     * Runs {@code action} at most once per operation key, replaying its stored value to duplicates.
     * A thrown exception releases the claim and reaches the caller unchanged. A value that {@code
     * codec} cannot encode is an error to the caller, and the claim is held until its lease runs
     * out, so that an immediate retry does not run the side effect again.
     *
     * @param operation the operation
     * @param action the operation itself
     * @param codec turns the value into a stored result and back
     * @param keepAlive whether to renew the lease while the action runs
     * @param <T> the value type
     * @return the action's value, or the stored value of an earlier run
     * @throws Exception whatever the action threw
     */
    public <T> T execute(
            Operation operation, Callable<T> action, ResultCodec<T> codec, boolean keepAlive)
            throws Exception {
        Admission admission = admit(operation);
        if (admission instanceof Admission.Replay replay) {
            return codec.decode(replay.result());
        }
        if (admission instanceof Admission.Unprotected) {
            return action.call();
        }
        Execution execution = ((Admission.Proceed) admission).execution();
        T value;
        try (LeaseHeartbeat.Beat beat = keepAlive ? execution.keepAlive() : null) {
            value = action.call();
        } catch (Throwable t) {
            execution.release();
            throw t;
        }
        StoredResult encoded;
        try {
            encoded = codec.encode(value);
        } catch (RuntimeException e) {
            execution.hold();
            throw e;
        }
        execution.finish(encoded);
        return value;
    }

    /** Stops the lease heartbeat. The store is not closed: it has its own owner. */
    @Override
    public void close() {
        heartbeat.close();
    }

    private static Decision admissionDecision(ClaimResult claim) {
        if (claim.recoveredFromCorrupt()) {
            return Decision.CORRUPT_RECORD;
        }
        return switch (claim.status()) {
            case LEASE_RECLAIMED -> Decision.LEASE_RECLAIMED;
            default -> Decision.NEW;
        };
    }

    private void requireSamePayload(Operation operation, IdempotencyRecord record, long started) {
        if (!record.fingerprint().equals(operation.fingerprint())
                || record.fingerprintVersion() != operation.fingerprintVersion()) {
            events.emit(Decision.PAYLOAD_MISMATCH, operation, started);
            throw new IdempotencyPayloadMismatchException();
        }
    }

    private Admission replay(
            Operation operation, IdempotencyRecord record, long waitStarted, long started) {
        events.emitAfterWait(Decision.REPLAYED, operation, started, waitedNanos(waitStarted));
        return new Admission.Replay(record.result(), record.expiresAt());
    }

    /**
     * @return when the wait began: {@code waitStarted}, or now, the first time, which emits {@code
     *     in_flight_wait}
     */
    private long waitBegun(Operation operation, long waitStarted, long started) {
        if (waitStarted >= 0) {
            return waitStarted;
        }
        long now = ticker.nanos();
        events.emit(Decision.IN_FLIGHT_WAIT, operation, started);
        return now;
    }

    /**
     * @param record the claim in flight, or {@code null} when the store was contended: the lease
     *     left is then unknown, and the whole lease is the answer
     */
    private IdempotencyInProgressException inProgress(
            Operation operation, IdempotencyRecord record, long waitStarted, long started) {
        events.emitAfterWait(Decision.CONFLICT, operation, started, waitedNanos(waitStarted));
        return new IdempotencyInProgressException(leaseLeft(operation, record));
    }

    /** How long the wait that began at {@code waitStarted} has lasted; 0 when none began. */
    private long waitedNanos(long waitStarted) {
        return waitStarted < 0 ? 0 : ticker.nanos() - waitStarted;
    }

    private Duration leaseLeft(Operation operation, IdempotencyRecord record) {
        if (record == null) {
            return operation.policy().leaseTtl();
        }
        try {
            Duration left = Duration.between(store.now(), record.leaseUntil());
            return left.isNegative() ? Duration.ZERO : left;
        } catch (RuntimeException e) {
            return operation.policy().leaseTtl();
        }
    }

    private Admission storageFailure(Operation operation, RuntimeException e, long started) {
        if (operation.policy().onStorageError() == StorageErrorMode.FAIL_OPEN) {
            events.emitStoreFailure(Decision.RAN_UNPROTECTED, operation, started, e);
            LOG.log(
                    Level.WARNING,
                    "idemkit store failed ("
                            + e.getMessage()
                            + "); running the operation unprotected because"
                            + " idemkit.on-storage-error=fail-open, so a duplicate may run too."
                            + " Restore the store; reconcile side effects of this window.");
            return new Admission.Unprotected();
        }
        events.emitStoreFailure(Decision.STORAGE_ERROR, operation, started, e);
        if (IdempotencyStorageException.kindOf(e) == IdempotencyStorageException.Kind.REFUSED) {
            // A full store refuses every new key until records expire: said on every surface,
            // since a method's or a message's caller may not log what it is thrown.
            LOG.log(Level.WARNING, "idemkit refused an operation: " + e.getMessage());
        }
        if (e instanceof IdempotencyStorageException storage) {
            throw storage;
        }
        throw new IdempotencyStorageException(
                "The idempotency store failed with "
                        + e.getClass().getName()
                        + "; the operation was refused (idemkit.on-storage-error=fail-closed)."
                        + " Retry later with the same key, a bounded number of times, backing"
                        + " off.",
                e);
    }
}
