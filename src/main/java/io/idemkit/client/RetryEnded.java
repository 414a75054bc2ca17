package io.idemkit.client;

import io.idemkit.IdempotencyException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a call run by {@link IdempotentRetry} ended, attached as a suppressed exception to the
 * exception the caller gets (C14.5): how many attempts were made, and why no further one was. It is
 * never thrown on its own; read it with {@link #of(Throwable)}:
 *
 * <pre>{@code
 * try {
 *     return retry.call(() -> payments.charge(order));
 * } catch (WebApplicationException e) {
 *     RetryEnded.of(e).ifPresent(r -> LOG.warning(r.attempts() + " attempts: " + r.reason()));
 *     throw e;
 * }
 * }</pre>
 *
 * <p>Its message is the same sentence, so a stack trace the application logs shows it as {@code
 * Suppressed: io.idemkit.client.RetryEnded: 4 attempts made by ...}. It carries no stack trace of
 * its own. Immutable.
 */
public final class RetryEnded extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    private final int attempts;
    private final String reason;

    RetryEnded(int attempts, String reason) {
        super(
                attempts
                        + (attempts == 1 ? " attempt" : " attempts")
                        + " made by idemkit's IdempotentRetry; it stopped on "
                        + reason);
        this.attempts = attempts;
        this.reason = reason;
    }

    /**
     * @return how many attempts were made, 1 when the first was not retried
     */
    public int attempts() {
        return attempts;
    }

    /**
     * @return why no further attempt was made, in words: the last answer, and the rule that ended
     *     the retries (a final status, {@code max-retries} spent, the deadline, a replay, {@code
     *     Stripe-Should-Retry: false}, an interrupt)
     */
    public String reason() {
        return reason;
    }

    /**
     * @param failure an exception a call run by {@link IdempotentRetry} threw
     * @return the report it carries, among its suppressed exceptions or those of a cause; empty for
     *     an exception that did not come out of {@link IdempotentRetry}. With nested retries, the
     *     outermost one's
     */
    public static Optional<RetryEnded> of(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure;
                t != null && seen.put(t, Boolean.TRUE) == null;
                t = t.getCause()) {
            Throwable[] suppressed = t.getSuppressed();
            for (int i = suppressed.length - 1; i >= 0; i--) {
                if (suppressed[i] instanceof RetryEnded ended) {
                    return Optional.of(ended);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // A report, not a failure: where it was made says nothing the caller's trace does not.
        return this;
    }
}
