package io.idemkit.client;

import io.idemkit.IdempotencyException;

/**
 * A request carried an idempotency key of the caller's own that differs from the key the same
 * request carried in an earlier attempt of its operation (C14.4): a key made inside the retried
 * call (a new UUID), or by a Rest Client's {@code @ClientHeaderParam} such as {@code {uuid}}, is
 * new on every attempt, and the server would run the request again. The request was not sent, and
 * {@link IdempotentRetry} does not retry it. Let the library key the request, or make the key once,
 * outside the retried call.
 */
public class IdempotencyKeyChangedException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what changed and what to do, without the keys
     */
    public IdempotencyKeyChangedException(String message) {
        super(message);
    }
}
