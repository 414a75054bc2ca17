package io.idemkit.core;

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
 */
public record OperationPolicy(
        Duration leaseTtl,
        Duration completedTtl,
        Duration waitTimeout,
        StorageErrorMode onStorageError,
        CacheablePolicy cacheable) {

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
    }

    private static void requirePositive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
