package io.idemkit;

/**
 * The idempotency key was already used for a different payload (its fingerprint differs). The
 * stored result is never replayed for it, and the operation was not run. Use a new key for a new
 * operation. HTTP: {@code 422 urn:idemkit:payload-mismatch}.
 */
public class IdempotencyPayloadMismatchException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with the standard message. */
    public IdempotencyPayloadMismatchException() {
        super(
                "The idempotency key was already used with a different payload; the earlier"
                        + " result is not replayed. Send a new idempotency key for a new operation.");
    }
}
