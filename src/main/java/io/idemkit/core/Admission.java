package io.idemkit.core;

import io.idemkit.spi.StoredResult;
import java.time.Instant;
import java.util.Objects;

/**
 * What the engine tells a surface to do with an operation. The refusals (payload mismatch, in
 * progress, storage failure under fail-closed) are thrown as exceptions instead.
 */
public sealed interface Admission {

    /**
     * The caller holds the claim: run the operation, then {@link Execution#finish finish} or {@link
     * Execution#release release} it.
     *
     * @param execution the claim to finish
     */
    record Proceed(Execution execution) implements Admission {
        /** Validates the component. */
        public Proceed {
            Objects.requireNonNull(execution, "execution");
        }
    }

    /**
     * A completed result exists: answer with it, and do not run the operation.
     *
     * @param result the stored result, verbatim
     * @param expiresAt when the stored result stops being replayed, on the store's clock (the HTTP
     *     surface sends it as {@code Idempotency-Key-Expires})
     */
    record Replay(StoredResult result, Instant expiresAt) implements Admission {
        /** Validates the components. */
        public Replay {
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }

    /**
     * The store failed and the policy is fail-open: run the operation this once without protection.
     * Nothing is stored.
     */
    record Unprotected() implements Admission {}
}
