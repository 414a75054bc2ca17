package io.idemkit.client;

import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyWire;

/**
 * The server refused a request of an operation because its key was used before with another
 * payload: idemkit's {@code urn:idemkit:payload-mismatch} problem, 422 (409 from a server in Stripe
 * mode, C6.4). The request did not run again. {@link IdempotentRetry} throws it in place of the
 * call's {@code WebApplicationException} (its cause), so that the caller can tell it from a
 * validation 422 without reading the body, which a Rest Client's exception may have lost; a
 * returned {@code Response} and an exception of the application's own mapping reach the caller as
 * they were.
 *
 * <p>It is a {@link IdempotencyPayloadMismatchException}, as the server side raises it. From the
 * calling side it has one of two causes: the body changed between attempts (a timestamp or a nonce
 * made inside the retried call), or two operations share one chosen key ({@code @OperationKey},
 * {@code IdempotentOperations.open(key)}).
 */
public class IdempotencyKeyReusedException extends IdempotencyPayloadMismatchException {

    private static final long serialVersionUID = 1L;

    private final int status;

    /**
     * @param status the status the server answered with
     * @param cause the call's exception
     */
    IdempotencyKeyReusedException(int status, Throwable cause) {
        this.status = status;
        initCause(cause);
    }

    /**
     * @return the status of the server's answer: 422, or 409 from a server in Stripe mode
     */
    public int status() {
        return status;
    }

    @Override
    public String getMessage() {
        return "The server answered "
                + status
                + " "
                + IdempotencyWire.PAYLOAD_MISMATCH
                + ": the request's idempotency key was used before with another payload, and the"
                + " request did not run again. Build the body once, outside the retried call (no"
                + " timestamp or nonce made per attempt), and give each operation a key of its own"
                + " (@OperationKey, IdempotentOperations.open(key)).";
    }
}
