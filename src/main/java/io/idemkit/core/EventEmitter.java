package io.idemkit.core;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyStorageException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/** Emits the one event of an operation to the configured sink, shielding the operation from it. */
final class EventEmitter {

    private static final System.Logger LOG = System.getLogger(EventEmitter.class.getName());

    private final Consumer<IdempotencyEvent> sink;
    private final String storeName;
    private final Ticker ticker;

    EventEmitter(Consumer<IdempotencyEvent> sink, String storeName, Ticker ticker) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    void emit(Decision decision, Operation operation, long startedNanos) {
        emit(decision, operation, startedNanos, null, Duration.ZERO);
    }

    /** Emits a decision taken after waiting {@code waitNanos} for an in-flight call (C4.8). */
    void emitAfterWait(Decision decision, Operation operation, long startedNanos, long waitNanos) {
        emit(decision, operation, startedNanos, null, Duration.ofNanos(Math.max(0, waitNanos)));
    }

    /**
     * Emits a failure of the store ({@code storage_error}, {@code ran_unprotected} or {@code
     * complete_failed}) with the kind of {@code failure} (C4.8).
     */
    void emitStoreFailure(
            Decision decision, Operation operation, long startedNanos, RuntimeException failure) {
        emit(
                decision,
                operation,
                startedNanos,
                IdempotencyStorageException.kindOf(failure),
                Duration.ZERO);
    }

    private void emit(
            Decision decision,
            Operation operation,
            long startedNanos,
            IdempotencyStorageException.Kind storageFailure,
            Duration waited) {
        IdempotencyEvent event =
                new IdempotencyEvent(
                        decision,
                        operation.effectiveKey(),
                        Duration.ofNanos(Math.max(0, ticker.nanos() - startedNanos)),
                        storeName,
                        operation.fingerprintVersion(),
                        operation.surface(),
                        storageFailure,
                        waited);
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit {0} key={1} latency={2}ms store={3}{4}",
                    decision.eventName(),
                    event.effectiveKey(),
                    event.latency().toMillis(),
                    storeName,
                    storageFailure == null ? "" : " failure=" + storageFailure.attributeValue());
        }
        try {
            sink.accept(event);
        } catch (RuntimeException e) {
            // An observer must never change an operation's outcome.
            LOG.log(
                    Level.WARNING,
                    "An observer of IdempotencyEvent threw "
                            + e.getClass().getName()
                            + "; the operation is unaffected. Fix the observer.",
                    e);
        }
    }
}
