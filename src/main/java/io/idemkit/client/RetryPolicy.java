package io.idemkit.client;

import io.idemkit.IdempotencyWire;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The retry decision table (C14.5), plain code: whether an attempt is sent again, and when. Holds
 * no state but its settings and its source of jitter; thread-safe when that is.
 */
final class RetryPolicy {

    private final ClientSettings settings;
    private final DoubleSupplier random;

    /**
     * @param random gives numbers in {@code [0, 1)}, for the jitter
     */
    RetryPolicy(ClientSettings settings, DoubleSupplier random) {
        this.settings = settings;
        this.random = random;
    }

    /**
     * @param attempts how many attempts were made, the one that ended included
     * @param result what the last one came to
     * @param now the caller's clock
     * @param deadline the latest instant a retry may start: the end of the call's {@code
     *     max-duration}, or of its keys' lifetime, whichever comes first
     */
    RetryDecision decide(int attempts, AttemptResult result, Instant now, Instant deadline) {
        String cause;
        boolean inProgress = inProgress(result);
        if (Boolean.FALSE.equals(result.shouldRetry())) {
            return RetryDecision.stop(answer(result) + " with Stripe-Should-Retry: false");
        } else if (Boolean.TRUE.equals(result.shouldRetry())) {
            // The server knows better than its status: stripe-java defers to it, either way.
            cause = answer(result) + " with Stripe-Should-Retry: true";
        } else if (result.replayed()) {
            return RetryDecision.stop(
                    answer(result)
                            + " replayed: the stored answer to the key, which a retry gets"
                            + " again");
        } else if (keyReused(result)) {
            return RetryDecision.stop(
                    answer(result)
                            + " "
                            + IdempotencyWire.PAYLOAD_MISMATCH
                            + ": the key was used before with another payload");
        } else if (result.transientIo()) {
            cause = "an I/O failure";
        } else if (result.status().isPresent()
                && settings.retryStatuses().contains(result.status().getAsInt())) {
            cause = "status " + result.status().getAsInt();
        } else if (inProgress && settings.retryStatuses().contains(IN_PROGRESS)) {
            cause = "status 409 in progress";
        } else {
            return RetryDecision.stop("final answer: " + answer(result));
        }
        if (!result.safeToRepeat()) {
            return RetryDecision.stop(cause + ", but a request of the attempt carried no key");
        }
        if (attempts > settings.maxRetries()) {
            return RetryDecision.stop(cause + ", but " + settings.maxRetries() + " retries made");
        }
        Duration delay = backOff(attempts);
        Optional<Duration> retryAfter = retryAfter(result.retryAfter(), now);
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get();
            if (asked.compareTo(settings.maxDelay()) > 0) {
                if (!inProgress) {
                    return RetryDecision.stop(cause + ", but Retry-After is past max-delay");
                }
                // An in-progress answer's Retry-After is the rest of the first call's lease: the
                // latest it may take, not the earliest a retry helps. A retry before it waits on
                // the server for the result, and replays it.
                asked = settings.maxDelay();
            }
            if (asked.compareTo(delay) > 0) {
                delay = asked;
            }
        }
        if (!now.plus(delay).isBefore(deadline)) {
            return RetryDecision.stop(cause + ", but the retry would start past its deadline");
        }
        return RetryDecision.after(delay, cause);
    }

    /** The status of an answer "the first call is still running" (C6, C14.5). */
    static final int IN_PROGRESS = 423;

    /**
     * @return whether the answer says the first call is still running: 423, or 409 with {@code
     *     Retry-After} or idemkit's {@code urn:idemkit:in-progress} problem, as the IETF draft and
     *     the Stripe dialect answer it (a 409 that reports a reused key carries neither)
     */
    static boolean inProgress(AttemptResult result) {
        if (result.status().isEmpty()) {
            return false;
        }
        int status = result.status().getAsInt();
        return status == IN_PROGRESS
                || (status == 409
                        && ((result.retryAfter() != null && !result.retryAfter().isBlank())
                                || IdempotencyWire.IN_PROGRESS.equals(result.problemType())));
    }

    /**
     * @return whether the answer says the key was used before with another payload: idemkit's
     *     {@code urn:idemkit:payload-mismatch} problem, 422 (409 in Stripe mode, C6.4). A 422
     *     without it is the server's verdict on the request itself (a validation error), not on the
     *     key
     */
    static boolean keyReused(AttemptResult result) {
        return result.status().isPresent()
                && IdempotencyWire.PAYLOAD_MISMATCH.equals(result.problemType());
    }

    private static String answer(AttemptResult result) {
        if (result.transientIo()) {
            return "an I/O failure";
        }
        return result.status().isPresent()
                ? "status " + result.status().getAsInt()
                : "the call's own result or exception";
    }

    /**
     * Exponential back-off with "equal jitter": the n-th retry waits between half and all of {@code
     * delay × 2^(n-1)}, capped at {@code max-delay}, so that callers who failed together spread
     * out, and none retries at once.
     */
    Duration backOff(int attempts) {
        long base = settings.delay().toMillis();
        long cap = settings.maxDelay().toMillis();
        int doublings = Math.min(attempts - 1, 30);
        long full = base > (cap >> doublings) ? cap : Math.min(cap, base << doublings);
        long half = full / 2;
        return Duration.ofMillis(
                Math.min(full, half + (long) (random.getAsDouble() * (full - half + 1))));
    }

    /**
     * @param text a {@code Retry-After} value: delay seconds, or an HTTP-date
     * @return how long it asks to wait from {@code now}; empty when absent or not readable
     */
    static Optional<Duration> retryAfter(String text, Instant now) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String value = text.strip();
        if (value.matches("[0-9]+")) {
            // A number too large for a long is longer than any max-delay.
            return Optional.of(
                    value.length() > 12
                            ? Duration.ofSeconds(999_999_999_999L)
                            : Duration.ofSeconds(Long.parseLong(value)));
        }
        return IdempotencyKeyFilter.imfFixdate(value)
                .map(at -> at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
    }
}
