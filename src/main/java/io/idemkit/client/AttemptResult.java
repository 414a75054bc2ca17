package io.idemkit.client;

import java.util.OptionalInt;

/**
 * What one attempt came to, as the retry decision reads it (C14.5).
 *
 * @param status the status of the response the attempt ended with, if it got one
 * @param retryAfter that response's {@code Retry-After}, as sent; {@code null} when absent
 * @param transientIo whether the attempt failed on I/O that a new connection can cure (refused,
 *     reset, timed out)
 * @param safeToRepeat whether the attempt's requests went through the client filter and every
 *     unsafe one carried a key
 */
record AttemptResult(
        OptionalInt status, String retryAfter, boolean transientIo, boolean safeToRepeat) {

    static AttemptResult status(int status, String retryAfter) {
        return new AttemptResult(OptionalInt.of(status), retryAfter, false, true);
    }

    static AttemptResult ioFailure() {
        return new AttemptResult(OptionalInt.empty(), null, true, true);
    }

    AttemptResult unkeyed() {
        return new AttemptResult(status, retryAfter, transientIo, false);
    }
}
