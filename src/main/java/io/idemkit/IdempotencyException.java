package io.idemkit;

/**
 * The root of every exception idemkit raises. Messages say what happened and what to do; they never
 * contain the raw idempotency key, a request body or a stored result.
 *
 * <p>Exceptions thrown by the protected operation itself are never wrapped: they reach the caller
 * unchanged.
 */
public abstract class IdempotencyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened and what to do, free of keys and payloads
     */
    protected IdempotencyException(String message) {
        super(message);
    }

    /**
     * @param message what happened and what to do, free of keys and payloads
     * @param cause the underlying failure, if any
     */
    protected IdempotencyException(String message, Throwable cause) {
        super(message, cause);
    }
}
