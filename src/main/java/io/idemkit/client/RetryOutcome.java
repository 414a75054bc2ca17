package io.idemkit.client;

/**
 * What a call run by {@link IdempotentRetry} came to (C14.6).
 *
 * @param value what the call returned on its last attempt
 * @param attempts how many attempts were made, 1 when the first succeeded
 * @param replayed whether the last response of the last attempt was a stored response the server
 *     replayed ({@code Idempotency-Replayed: true}, or {@code Idempotent-Replayed: true} from a
 *     server in Stripe mode): the operation had already run, and this is its first result
 * @param reason why no further attempt was made, in words, as {@link RetryEnded#reason()} says it
 *     for a call that threw: a final answer, {@code max-retries} spent on a 503 the caller now
 *     reads in {@code value}, the deadline, a replay
 * @param <T> what the call returns
 */
public record RetryOutcome<T>(T value, int attempts, boolean replayed, String reason) {

    /** An outcome whose reason is not known: for the application's own tests. */
    public RetryOutcome(T value, int attempts, boolean replayed) {
        this(value, attempts, replayed, "not given");
    }
}
