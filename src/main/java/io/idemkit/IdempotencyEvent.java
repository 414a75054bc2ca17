package io.idemkit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The event emitted for every protected operation, carrying the decision that was taken for it
 * (contract C4.8): one terminal event per operation, preceded by {@code in_flight_wait} when the
 * operation waited for an in-flight first call, and accompanied by {@code lease_lost} when its
 * heartbeat found its lease lost while it ran. It is fired as a synchronous CDI event: observe it
 * with {@code void onEvent(@Observes IdempotencyEvent event)} to feed metrics or audit logs. An
 * observer that throws is logged and otherwise ignored; it never changes the operation's outcome.
 *
 * <p>The event never carries the raw idempotency key, the scope or any payload: {@link
 * #effectiveKey()} is the SHA-256 effective key, the same value the store uses as the record id.
 *
 * @param decision what happened to the operation
 * @param effectiveKey the lowercase hex SHA-256 effective key (64 characters)
 * @param latency the time from admission to this decision, including the operation itself when it
 *     ran
 * @param store the store's name ({@code memory}, {@code mongodb}, or a custom store's name)
 * @param fingerprintVersion the fingerprint scheme version of the request (currently {@code 1})
 * @param surface where the operation came from: {@code http}, {@code method} or {@code message}
 * @param storageFailure for the store's failures ({@link Decision#STORAGE_ERROR}, {@link
 *     Decision#RAN_UNPROTECTED}, {@link Decision#COMPLETE_FAILED}) only, which kind of store
 *     failure it was (for example {@link IdempotencyStorageException.Kind#WRITE_NOT_CONFIRMED},
 *     which may leave the key claimed until its lease ends); {@code null} for every other decision.
 *     Prefer {@link #storageFailureKind()}.
 * @param waitDuration how long the operation waited for an in-flight first call before this
 *     decision ({@code replayed} or {@code conflict} after a wait); zero when it did not wait
 */
public record IdempotencyEvent(
        Decision decision,
        String effectiveKey,
        Duration latency,
        String store,
        int fingerprintVersion,
        String surface,
        IdempotencyStorageException.Kind storageFailure,
        Duration waitDuration) {

    /**
     * Validates the components.
     *
     * @param decision what happened to the operation
     * @param effectiveKey the lowercase hex SHA-256 effective key (64 characters)
     * @param latency the time from admission to this decision, including the operation itself when
     *     it ran
     * @param store the store's name ({@code memory}, {@code mongodb}, or a custom store's name)
     * @param fingerprintVersion the fingerprint scheme version of the request (currently {@code 1})
     * @param surface where the operation came from: {@code http}, {@code method} or {@code message}
     * @param storageFailure for the store's failures ({@code STORAGE_ERROR}, {@code
     *     RAN_UNPROTECTED}, {@code COMPLETE_FAILED}) only, which kind of store failure it was;
     *     {@code null} for every other decision. Prefer {@link #storageFailureKind()}.
     * @param waitDuration how long the operation waited for an in-flight first call; zero when it
     *     did not wait
     * @throws IllegalArgumentException if {@code storageFailure} is missing for a store failure, or
     *     given for another decision, or if {@code waitDuration} is negative
     */
    public IdempotencyEvent {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(surface, "surface");
        Objects.requireNonNull(waitDuration, "waitDuration");
        if (decision.isStoreFailure() != (storageFailure != null)) {
            throw new IllegalArgumentException(
                    "storageFailure is given for STORAGE_ERROR, RAN_UNPROTECTED and"
                            + " COMPLETE_FAILED and only for them, not for "
                            + decision
                            + " with "
                            + storageFailure);
        }
        if (waitDuration.isNegative()) {
            throw new IllegalArgumentException("waitDuration is negative: " + waitDuration);
        }
    }

    /**
     * An event that did not wait.
     *
     * @param decision what happened to the operation
     * @param effectiveKey the lowercase hex SHA-256 effective key
     * @param latency the time from admission to this decision
     * @param store the store's name
     * @param fingerprintVersion the fingerprint scheme version of the request
     * @param surface {@code http}, {@code method} or {@code message}
     * @param storageFailure for the store's failures only, which kind it was
     */
    public IdempotencyEvent(
            Decision decision,
            String effectiveKey,
            Duration latency,
            String store,
            int fingerprintVersion,
            String surface,
            IdempotencyStorageException.Kind storageFailure) {
        this(
                decision,
                effectiveKey,
                latency,
                store,
                fingerprintVersion,
                surface,
                storageFailure,
                Duration.ZERO);
    }

    /**
     * An event that did not wait, of a decision other than a store failure, or of a store failure
     * of kind {@link IdempotencyStorageException.Kind#FAILED}.
     *
     * @param decision what happened to the operation
     * @param effectiveKey the lowercase hex SHA-256 effective key
     * @param latency the time from admission to this decision
     * @param store the store's name
     * @param fingerprintVersion the fingerprint scheme version of the request
     * @param surface {@code http}, {@code method} or {@code message}
     */
    public IdempotencyEvent(
            Decision decision,
            String effectiveKey,
            Duration latency,
            String store,
            int fingerprintVersion,
            String surface) {
        this(
                decision,
                effectiveKey,
                latency,
                store,
                fingerprintVersion,
                surface,
                decision.isStoreFailure() ? IdempotencyStorageException.Kind.FAILED : null);
    }

    /**
     * @return which kind of store failure a store failure was; empty for other decisions
     */
    public Optional<IdempotencyStorageException.Kind> storageFailureKind() {
        return Optional.ofNullable(storageFailure);
    }

    /** The decision taken for one operation. */
    public enum Decision {
        /** The key was free: the operation ran, and its outcome was stored or released. */
        NEW,
        /**
         * A completed result with a matching fingerprint was replayed; the operation did not run.
         */
        REPLAYED,
        /**
         * The call found an in-flight first call and starts to wait for it. Emitted when the wait
         * begins, before the call's terminal event ({@code replayed} with the wait's duration,
         * {@code conflict}, or, if the first call was released, the outcome of its own run).
         */
        IN_FLIGHT_WAIT,
        /** The call found the operation still in progress (after waiting, or with no wait). */
        CONFLICT,
        /** The key was used before with a different payload: refused, nothing replayed. */
        PAYLOAD_MISMATCH,
        /** An earlier claim's lease had run out; this call took the key over and ran. */
        LEASE_RECLAIMED,
        /**
         * The operation ran, but its lease was taken over meanwhile, so its result was discarded
         * (fenced) instead of stored. The caller still received its own result.
         */
        LEASE_RECLAIMED_LOSS,
        /**
         * The store failed and the operation was refused (fail-closed): nothing ran. {@link
         * IdempotencyEvent#storageFailureKind()} says which kind of failure it was.
         */
        STORAGE_ERROR,
        /** The stored record was unreadable; it was treated as absent and the operation ran. */
        CORRUPT_RECORD,
        /**
         * The store failed and the operation ran without protection ({@code
         * idemkit.on-storage-error=fail-open}): a duplicate may run too. Its rate is the outage's
         * blast radius.
         */
        RAN_UNPROTECTED,
        /**
         * The operation ran, but storing its result failed: nothing is replayed, and the claim is
         * held until its lease ends; a retry after that runs the operation again.
         */
        COMPLETE_FAILED,
        /**
         * While the operation ran, its heartbeat could not renew the lease: another executor may
         * take the key over and run too. Emitted when found, besides the terminal event. A rising
         * rate means operations outlive their leases.
         */
        LEASE_LOST,
        /**
         * The operation ran, but the application's redactor failed on its result, so nothing was
         * stored (an unredacted copy must never be) and the claim was released: a retry runs the
         * operation again. The caller still received its result (contract C4.10).
         */
        REDACTION_FAILED,
        /**
         * The message surface only: a message whose runs all failed, {@code
         * idemkit.message.max-attempts} of them, was given up on this delivery. The bean did not
         * run; {@link IdempotencyMessageExhausted} fired, the record was completed as given up and
         * the message acknowledged (contract C11.3). Like every decision it reports the delivery
         * whatever its transaction then does: a give-up that rolls back is delivered again, and
         * given up again. Each one is a message that a dead-letter observer should have received.
         */
        GIVEN_UP;

        /**
         * @return whether the decision reports a failure of the store, and so carries its kind
         */
        public boolean isStoreFailure() {
            return this == STORAGE_ERROR || this == RAN_UNPROTECTED || this == COMPLETE_FAILED;
        }

        /**
         * @return the language-neutral event name, for example {@code idempotency.corrupt_record}
         */
        public String eventName() {
            return "idempotency." + name().toLowerCase(Locale.ROOT);
        }
    }
}
