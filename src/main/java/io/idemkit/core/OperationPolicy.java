package io.idemkit.core;

import io.idemkit.spi.IdempotencyRedactor;
import java.time.Duration;
import java.util.Objects;

/**
 * The knobs that govern one operation, after configuration and per-method overrides are merged.
 *
 * @param leaseTtl how long a claim holds the key, positive
 * @param completedTtl how long a completed result is replayed, positive
 * @param waitTimeout how long a duplicate waits for an in-flight call, not negative
 * @param onStorageError what to do when the store fails at admission
 * @param cacheable which outcomes are stored
 * @param redactor rewrites the copy of a result that is stored (C4.10); {@link #NO_REDACTION} when
 *     none applies
 * @param completion where a method that runs in a JTA transaction completes its record (C13);
 *     ignored by the HTTP and message surfaces
 */
public record OperationPolicy(
        Duration leaseTtl,
        Duration completedTtl,
        Duration waitTimeout,
        StorageErrorMode onStorageError,
        CacheablePolicy cacheable,
        IdempotencyRedactor redactor,
        CompletionMode completion) {

    /** Stores the result as it is. */
    public static final IdempotencyRedactor NO_REDACTION = result -> result;

    /**
     * A policy that stores results as they are.
     *
     * @param leaseTtl how long a claim holds the key, positive
     * @param completedTtl how long a completed result is replayed, positive
     * @param waitTimeout how long a duplicate waits for an in-flight call, not negative
     * @param onStorageError what to do when the store fails at admission
     * @param cacheable which outcomes are stored
     */
    public OperationPolicy(
            Duration leaseTtl,
            Duration completedTtl,
            Duration waitTimeout,
            StorageErrorMode onStorageError,
            CacheablePolicy cacheable) {
        this(
                leaseTtl,
                completedTtl,
                waitTimeout,
                onStorageError,
                cacheable,
                NO_REDACTION,
                CompletionMode.AFTER_COMMIT);
    }

    /** Validates the components. */
    public OperationPolicy {
        requirePositive(leaseTtl, "leaseTtl");
        requirePositive(completedTtl, "completedTtl");
        Objects.requireNonNull(waitTimeout, "waitTimeout");
        if (waitTimeout.isNegative()) {
            throw new IllegalArgumentException("waitTimeout must not be negative");
        }
        Objects.requireNonNull(onStorageError, "onStorageError");
        Objects.requireNonNull(cacheable, "cacheable");
        Objects.requireNonNull(redactor, "redactor");
        Objects.requireNonNull(completion, "completion");
    }

    /**
     * @param chosen the redactor of the operation
     * @return this policy with {@code chosen} as its redactor
     */
    public OperationPolicy withRedactor(IdempotencyRedactor chosen) {
        return new OperationPolicy(
                leaseTtl, completedTtl, waitTimeout, onStorageError, cacheable, chosen, completion);
    }

    /**
     * @param mode where the record is completed
     * @return this policy with {@code mode}
     */
    public OperationPolicy withCompletion(CompletionMode mode) {
        return new OperationPolicy(
                leaseTtl, completedTtl, waitTimeout, onStorageError, cacheable, redactor, mode);
    }

    private static void requirePositive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
