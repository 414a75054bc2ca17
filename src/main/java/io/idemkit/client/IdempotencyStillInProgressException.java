package io.idemkit.client;

import io.idemkit.IdempotencyInProgressException;
import java.time.Duration;

/**
 * The server still answered "in progress" (423, or 409 with {@code Retry-After} or idemkit's {@code
 * urn:idemkit:in-progress}) when {@link IdempotentRetry} stopped retrying: its {@code max-retries},
 * {@code max-duration} or the keys' lifetime were spent, or it was interrupted. The first request
 * with the key may still complete on the server: call again later, in the same operation (the same
 * keys), and the answer is its result; a new operation would run it again. Thrown in place of the
 * call's {@code WebApplicationException} (its cause); a returned {@code Response} and an exception
 * of the application's own mapping reach the caller as they were.
 *
 * <p>It is an {@link IdempotencyInProgressException}, as the server side raises it; {@link
 * #retryAfter()} is the server's last {@code Retry-After}, zero when it sent none.
 */
public class IdempotencyStillInProgressException extends IdempotencyInProgressException {

    private static final long serialVersionUID = 1L;

    private final int status;

    /**
     * @param status the status of the last answer
     * @param retryAfter its {@code Retry-After}, zero when absent, never negative
     * @param cause the call's exception
     */
    IdempotencyStillInProgressException(int status, Duration retryAfter, Throwable cause) {
        super(
                "The server still answered "
                        + status
                        + " (in progress) for a request of this operation when the retries"
                        + " ended; its Retry-After was "
                        + retryAfter.toSeconds()
                        + " s. The first request with the key may still complete: call again"
                        + " later in the same operation (an @OperationKey or a named operation"
                        + " keeps its keys) to get its result, or raise"
                        + " idemkit.client.retry.max-duration to wait longer.",
                retryAfter);
        this.status = status;
        initCause(cause);
    }

    /**
     * @return the status of the last answer: 423, or 409
     */
    public int status() {
        return status;
    }
}
