package io.idemkit;

import java.time.Duration;

/**
 * The call's lease ran out while it ran, and another executor took the operation over, so the
 * call's transaction was rolled back: none of its writes committed (contract C13, for methods whose
 * record completes inside their transaction). The other executor's run is the one that counts.
 * Retry with the same key and payload: the retry gets that run's result, or waits for it. HTTP,
 * through the library's exception mappers: {@code 423 urn:idemkit:in-progress} with {@code
 * Retry-After}, as any operation still in progress elsewhere.
 */
public class IdempotencyLeaseLostException extends IdempotencyInProgressException {

    private static final long serialVersionUID = 1L;

    /** After a takeover, the other executor has just started: ask for a short wait. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    /** A lease lost while the call ran. */
    public IdempotencyLeaseLostException() {
        super(
                "This call's lease ran out while it ran, and another executor took the operation"
                        + " over; its transaction was rolled back, so none of its writes"
                        + " committed. Retry with the same key and payload, a bounded number of"
                        + " times: the retry gets the other executor's result, or waits for it."
                        + " Raise the lease TTL above the operation's longest run.",
                RETRY_AFTER);
    }
}
