package io.idemkit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The one event emitted for every protected operation, carrying the decision that was taken for it
 * (contract C4.8). It is fired as a synchronous CDI event: observe it with {@code void
 * onEvent(@Observes IdempotencyEvent event)} to feed metrics or audit logs. An observer that throws
 * is logged and otherwise ignored; it never changes the operation's outcome.
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
 * @param storageFailure for {@link Decision#STORAGE_ERROR} only, which kind of store failure it was
 *     (for example {@link IdempotencyStorageException.Kind#WRITE_NOT_CONFIRMED}, which may leave
 *     the key claimed until its lease ends); {@code null} for every other decision. Prefer {@link
 *     #storageFailureKind()}.
 */
public record IdempotencyEvent(
        Decision decision,
        String effectiveKey,
        Duration latency,
        String store,
        int fingerprintVersion,
        String surface,
        IdempotencyStorageException.Kind storageFailure) {

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
     * @param storageFailure for {@link Decision#STORAGE_ERROR} only, which kind of store failure it
     *     was (for example {@link IdempotencyStorageException.Kind#WRITE_NOT_CONFIRMED}, which may
     *     leave the key claimed until its lease ends); {@code null} for every other decision.
     *     Prefer {@link #storageFailureKind()}.
     * @throws IllegalArgumentException if {@code storageFailure} is missing for a {@code
     *     STORAGE_ERROR}, or given for another decision
     */
    public IdempotencyEvent {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(surface, "surface");
        if ((decision == Decision.STORAGE_ERROR) != (storageFailure != null)) {
            throw new IllegalArgumentException(
                    "storageFailure is given for STORAGE_ERROR and only for it, not for "
                            + decision
                            + " with "
                            + storageFailure);
        }
    }

    /**
     * An event of a decision other than {@link Decision#STORAGE_ERROR}, or of a {@code
     * STORAGE_ERROR} of kind {@link IdempotencyStorageException.Kind#FAILED}.
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
                decision == Decision.STORAGE_ERROR
                        ? IdempotencyStorageException.Kind.FAILED
                        : null);
    }

    /**
     * @return which kind of store failure a {@code STORAGE_ERROR} was; empty for other decisions
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
        /** The call waited for an in-flight first call, then replayed its result. */
        IN_FLIGHT_WAIT,
        /** The call waited for an in-flight first call that did not finish in time: in progress. */
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
         * The store failed; the operation was refused (fail-closed) or ran unprotected, or, when
         * storing its result failed, its claim is held until the lease ends. {@link
         * IdempotencyEvent#storageFailureKind()} says which kind of failure it was.
         */
        STORAGE_ERROR,
        /** The stored record was unreadable; it was treated as absent and the operation ran. */
        CORRUPT_RECORD;

        /**
         * @return the language-neutral event name, for example {@code idempotency.corrupt_record}
         */
        public String eventName() {
            return "idempotency." + name().toLowerCase(Locale.ROOT);
        }
    }
}
