package io.idemkit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

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
 * @param surface where the operation came from: {@code http} or {@code method}
 */
public record IdempotencyEvent(
        Decision decision,
        String effectiveKey,
        Duration latency,
        String store,
        int fingerprintVersion,
        String surface) {

    /** Validates the components. */
    public IdempotencyEvent {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(surface, "surface");
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
        /** The store failed; the operation was refused (fail-closed) or ran unprotected. */
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
