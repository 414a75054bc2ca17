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
 * @param replayed whether that response was a stored one the server replayed (C6.2, C14.6)
 * @param problemType the {@code type} of its problem body (RFC 9457), when it had one; {@code null}
 *     otherwise
 * @param shouldRetry its {@code Stripe-Should-Retry}: {@code true} or {@code false} when the server
 *     said, {@code null} when it did not
 */
record AttemptResult(
        OptionalInt status,
        String retryAfter,
        boolean transientIo,
        boolean safeToRepeat,
        boolean replayed,
        String problemType,
        Boolean shouldRetry) {

    static AttemptResult status(int status, String retryAfter) {
        return new AttemptResult(
                OptionalInt.of(status), retryAfter, false, true, false, null, null);
    }

    static AttemptResult ioFailure() {
        return new AttemptResult(OptionalInt.empty(), null, true, true, false, null, null);
    }

    /** An attempt that failed on its own, with no response to read. */
    static AttemptResult none() {
        return new AttemptResult(OptionalInt.empty(), null, false, true, false, null, null);
    }

    AttemptResult unkeyed() {
        return new AttemptResult(
                status, retryAfter, transientIo, false, replayed, problemType, shouldRetry);
    }

    AttemptResult replay(boolean replay) {
        return new AttemptResult(
                status, retryAfter, transientIo, safeToRepeat, replay, problemType, shouldRetry);
    }

    AttemptResult problem(String type) {
        return new AttemptResult(
                status, retryAfter, transientIo, safeToRepeat, replayed, type, shouldRetry);
    }

    AttemptResult serverSaid(Boolean retry) {
        return new AttemptResult(
                status, retryAfter, transientIo, safeToRepeat, replayed, problemType, retry);
    }
}
