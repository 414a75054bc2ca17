package io.idemkit;

import jakarta.ejb.ApplicationException;

/**
 * The root of every exception idemkit raises. Messages say what happened and what to do; they never
 * contain the raw idempotency key, a request body or a stored result.
 *
 * <p>Exceptions thrown by the protected operation itself are never wrapped: they reach the caller
 * unchanged.
 *
 * <p>For an enterprise bean these are application exceptions that roll the transaction back, so
 * that the caller of an {@code @Idempotent} EJB method gets them as thrown (C7.3), as a CDI bean's
 * caller does, and a JAX-RS resource that calls the bean gets the library's problem answer (C7.5):
 * as system exceptions the container would wrap them in {@code EJBException}, log them as
 * unexpected and discard the bean instance. The transaction outcome is the same either way. Without
 * Jakarta Enterprise Beans the annotation is not there at run time, and changes nothing.
 */
@ApplicationException(rollback = true)
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
