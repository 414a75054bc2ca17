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
        emit(decision, operation, startedNanos, null);
    }

    /** Emits {@code storage_error} with the kind of {@code failure} (C4.8). */
    void emitStorageError(Operation operation, long startedNanos, RuntimeException failure) {
        emit(
                Decision.STORAGE_ERROR,
                operation,
                startedNanos,
                IdempotencyStorageException.kindOf(failure));
    }

    private void emit(
            Decision decision,
            Operation operation,
            long startedNanos,
            IdempotencyStorageException.Kind storageFailure) {
        IdempotencyEvent event =
                new IdempotencyEvent(
                        decision,
                        operation.effectiveKey(),
                        Duration.ofNanos(Math.max(0, ticker.nanos() - startedNanos)),
                        storeName,
                        operation.fingerprintVersion(),
                        operation.surface(),
                        storageFailure);
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
