package io.idemkit;

import java.time.Duration;
import java.util.Objects;

/**
 * Another caller holds a live claim on the same key, and it did not complete within the wait
 * timeout. The operation was not run. Retry after {@link #retryAfter()}: by then the first call has
 * either completed (the retry gets its result) or its lease has run out (the retry runs the
 * operation). HTTP: {@code 423 urn:idemkit:in-progress} with {@code Retry-After}.
 */
public class IdempotencyInProgressException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** How long the caller should wait before it retries: the first call's lease left. */
    private final Duration retryAfter;

    /**
     * @param retryAfter how long the current claim's lease has left, never negative
     */
    public IdempotencyInProgressException(Duration retryAfter) {
        super(
                "An earlier call with the same idempotency key is still in progress and did not"
                        + " complete within the wait timeout; its lease has "
                        + Objects.requireNonNull(retryAfter, "retryAfter").toMillis()
                        + " ms left. Retry after that with the same key and payload, a bounded number of"
                        + " times, backing off between retries.");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        this.retryAfter = retryAfter;
    }

    /**
     * For a subclass that says why in its own words.
     *
     * @param message what happened and what to do
     * @param retryAfter how long the caller should wait before it retries, never negative
     */
    protected IdempotencyInProgressException(String message, Duration retryAfter) {
        super(message);
        if (Objects.requireNonNull(retryAfter, "retryAfter").isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative");
        }
        this.retryAfter = retryAfter;
    }

    /**
     * @return how long the current claim's lease had left when the wait gave up, never negative
     */
    public Duration retryAfter() {
        return retryAfter;
    }
}
