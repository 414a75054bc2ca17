package io.idemkit.client;

import io.idemkit.IdempotencyWire;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Sends a keyed call again after a failure that a retry with the same key can cure (C14.5): an I/O
 * failure (refused, reset, timed out) or a status of {@code idemkit.client.retry.statuses} (408,
 * 423, 425, 429, 502, 503, 504 by default), and a 409 with {@code Retry-After}, which says "still
 * in progress" as a 423 does (or carries idemkit's {@code urn:idemkit:in-progress} problem); never
 * a final answer such as 400, a 409 without either, or 422, never a replayed answer (a stored
 * answer is what the key gets again), and never against the server's {@code Stripe-Should-Retry},
 * which overrides the status either way. It waits an exponential back-off with jitter, or longer
 * when the server's {@code Retry-After} asks for it (for an in-progress answer, at most {@code
 * max-delay}: its {@code Retry-After} is the rest of the first call's lease, and a retry before it
 * waits for the result on the server), and stops after {@code max-retries}, at {@code
 * max-duration}, or before the keys' lifetime ends.
 *
 * <pre>{@code
 * Receipt r = retry.call(() -> payments.charge(order));                // MicroProfile Rest Client
 * RetryOutcome<Response> o =
 *         retry.callForOutcome(() -> target.request().post(Entity.json(order)));   // JAX-RS client
 * }</pre>
 *
 * <p>The call runs as an operation (it joins the one open on the thread), and every attempt is one
 * attempt of it: a request sent again gets the key it had (C14.3). Only calls whose requests passed
 * through {@link IdempotencyClientFeature}, every unsafe one with a key, are retried. It reads a
 * returned {@link Response}, a thrown {@link WebApplicationException} and, for an exception of the
 * application's own (a Rest Client's {@code ResponseExceptionMapper}), the last response the
 * attempt received. A response it retries is closed first.
 *
 * <p>The caller gets the last attempt's value or exception, with two exceptions mapped: a {@link
 * WebApplicationException} for idemkit's key reuse ({@code urn:idemkit:payload-mismatch}) becomes
 * {@link IdempotencyKeyReusedException}, and one for an in-progress answer that outlasted the
 * retries {@link IdempotencyStillInProgressException}, each caused by the call's exception. Every
 * exception carries a suppressed {@link RetryEnded} with the attempts made and why they stopped;
 * {@link RetryOutcome#reason()} says it for a returned value.
 *
 * <p>Thread-safe; blocks the calling thread while it waits.
 */
public final class IdempotentRetry {

    private static final System.Logger LOG = System.getLogger(IdempotentRetry.class.getName());
    private static final AtomicBoolean WARNED_UNFILTERED = new AtomicBoolean();
    private static final AtomicBoolean WARNED_STACKED = new AtomicBoolean();

    /**
     * How much earlier than a server's {@code Idempotency-Key-Expires} retries stop: clock skew.
     */
    static final Duration EXPIRY_MARGIN = Duration.ofMinutes(1);

    /** Waits; a test's stands in for the clock's passing. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final ClientSettings settings;
    private final RetryPolicy policy;
    private final Clock clock;
    private final Sleeper sleeper;

    IdempotentRetry(ClientSettings settings, Clock clock, Sleeper sleeper, RetryPolicy policy) {
        this.settings = settings;
        this.clock = clock;
        this.sleeper = sleeper;
        this.policy = policy;
    }

    /**
     * @param settings the retry budget, statuses and the keys' lifetime
     * @return an executor with these settings
     */
    public static IdempotentRetry of(ClientSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new IdempotentRetry(
                settings,
                Clock.systemUTC(),
                d -> Thread.sleep(d.toMillis()),
                new RetryPolicy(settings, () -> ThreadLocalRandom.current().nextDouble()));
    }

    /**
     * @return an executor with the settings of MicroProfile Config ({@link
     *     ClientSettings#fromConfig()})
     */
    public static IdempotentRetry fromConfig() {
        return of(ClientSettings.fromConfig());
    }

    /**
     * @return the settings this executor retries by
     */
    public ClientSettings settings() {
        return settings;
    }

    /**
     * Runs {@code call}, and again while the retry rules above (C14.5) allow.
     *
     * @return what the last attempt returned
     * @throws X what the last attempt threw, with a {@link RetryEnded}; or its mapping, above
     */
    public <T, X extends Exception> T call(OperationCall<T, X> call) throws X {
        return callForOutcome(call).value();
    }

    /**
     * Runs {@code call}, and again while the retry rules above (C14.5) allow.
     *
     * @return what the last attempt returned, how many attempts were made, whether its last
     *     response was a replay, and why no further attempt was made
     * @throws X what the last attempt threw, with a {@link RetryEnded}; or its mapping, above
     */
    public <T, X extends Exception> RetryOutcome<T> callForOutcome(OperationCall<T, X> call)
            throws X {
        Objects.requireNonNull(call, "call");
        Instant start = clock.instant();
        warnIfRepeated();
        try (OperationScope scope = IdempotentOperations.open()) {
            Frame frame = scope.frame();
            for (int attempt = 1; ; attempt++) {
                T value = null;
                Exception failure = null;
                try {
                    value = frame.attempt(call);
                } catch (Exception e) {
                    failure = e;
                }
                AttemptLog log = frame.log();
                AttemptResult result = resultOf(value, failure, log);
                Instant now = clock.instant();
                RetryDecision decision =
                        policy.decide(attempt, result, now, deadline(start, frame.operation()));
                if (!log.sentAny() && retryable(result)) {
                    warnUnfiltered();
                }
                LOG.log(
                        Level.DEBUG,
                        () ->
                                "idemkit client: attempt "
                                        + attemptNo(frame)
                                        + " ended with "
                                        + describe(result)
                                        + "; "
                                        + (decision.retry()
                                                ? "retrying after "
                                                        + decision.delay().toMillis()
                                                        + " ms"
                                                : "not retrying: " + decision.reason()));
                if (!decision.retry()) {
                    return finish(value, failure, attempt, log, result, decision.reason(), now);
                }
                // Its connection goes back now, but an interrupt hands it to the caller readable.
                release(value, failure);
                try {
                    sleeper.sleep(decision.delay());
                    close(value, failure);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return finish(
                            value,
                            failure,
                            attempt,
                            log,
                            result,
                            "an interrupt while waiting to retry after " + decision.reason(),
                            now);
                }
            }
        }
    }

    private Instant deadline(Instant start, Operation operation) {
        Instant deadline = start.plus(settings.maxDuration());
        Instant lifetimeEnd = operation.firstKeyAt().orElse(start).plus(settings.keyLifetime());
        if (lifetimeEnd.isBefore(deadline)) {
            deadline = lifetimeEnd;
        }
        Instant announced =
                operation.keyExpiresAt().map(e -> e.minus(EXPIRY_MARGIN)).orElse(deadline);
        return announced.isBefore(deadline) ? announced : deadline;
    }

    /**
     * @return the attempt's result: from a returned response or a thrown {@link
     *     WebApplicationException}, else from the failure's kind and the last response the attempt
     *     received
     */
    static AttemptResult resultOf(Object value, Exception failure, AttemptLog log) {
        AttemptResult result;
        if (value instanceof Response response) {
            result = fromResponse(response.getStatus(), response::getHeaderString, log);
        } else if (failure instanceof WebApplicationException e && e.getResponse() != null) {
            result =
                    fromResponse(
                            e.getResponse().getStatus(), e.getResponse()::getHeaderString, log);
        } else if (failure != null && TransientFailures.isTransient(failure)) {
            result = AttemptResult.ioFailure();
        } else if (failure != null && log.lastStatus().isPresent()) {
            // An exception of the application's own, mapped from the response it received.
            result = fromResponse(log.lastStatus().getAsInt(), name -> null, log);
        } else {
            result = AttemptResult.none();
        }
        return log.safeToRepeat() ? result : result.unkeyed();
    }

    /**
     * @param headers the response's headers as the caller has them; where a Rest Client's exception
     *     lost them (Liberty's does), what the filter saw of the same response counts
     */
    private static AttemptResult fromResponse(
            int status, Function<String, String> headers, AttemptLog log) {
        boolean seen = log.lastStatus().isPresent() && log.lastStatus().getAsInt() == status;
        String retryAfter = headers.apply(HttpHeaders.RETRY_AFTER);
        Boolean shouldRetry =
                IdempotencyKeyFilter.shouldRetry(
                        headers.apply(IdempotencyWire.STRIPE_SHOULD_RETRY_HEADER));
        if (seen) {
            retryAfter = retryAfter != null ? retryAfter : log.lastRetryAfter();
            shouldRetry = shouldRetry != null ? shouldRetry : log.lastShouldRetry();
        }
        return AttemptResult.status(status, retryAfter)
                .replay(IdempotentResponses.isReplay(headers) || (seen && log.lastReplayed()))
                .problem(seen ? log.lastProblemType() : null)
                .serverSaid(shouldRetry);
    }

    private static <T, X extends Exception> RetryOutcome<T> finish(
            T value,
            Exception failure,
            int attempts,
            AttemptLog log,
            AttemptResult result,
            String reason,
            Instant now)
            throws X {
        if (failure != null) {
            throw IdempotentRetry.<X>sneaky(
                    mapped(failure, result, now, new RetryEnded(attempts, reason)));
        }
        return new RetryOutcome<>(value, attempts, log.lastReplayed(), reason);
    }

    /**
     * @return what the caller gets for the last attempt's exception: for a {@link
     *     WebApplicationException} that says the key was used with another payload, or that the
     *     first request is still in progress, the library's exception for it, caused by the call's;
     *     else the call's exception unchanged. Either way with the report of the retries.
     */
    static Exception mapped(
            Exception failure, AttemptResult result, Instant now, RetryEnded ended) {
        Exception caller = failure;
        if (failure instanceof WebApplicationException && result.status().isPresent()) {
            int status = result.status().getAsInt();
            if (RetryPolicy.keyReused(result)) {
                caller = new IdempotencyKeyReusedException(status, failure);
            } else if (RetryPolicy.inProgress(result) && !result.replayed()) {
                caller =
                        new IdempotencyStillInProgressException(
                                status,
                                RetryPolicy.retryAfter(result.retryAfter(), now)
                                        .orElse(Duration.ZERO),
                                failure);
            }
        }
        caller.addSuppressed(ended);
        return caller;
    }

    /** The call's own exception, rethrown as the type the call declared. */
    @SuppressWarnings("unchecked")
    private static <X extends Exception> X sneaky(Exception failure) throws X {
        throw (X) failure;
    }

    private static void close(Object value, Exception failure) {
        Response response = responseOf(value, failure);
        if (response != null) {
            response.close();
        }
    }

    /**
     * Reads the body of a response about to be retried into memory, which frees its connection
     * during the back-off and keeps it readable for the caller if the wait is interrupted: a
     * retried answer is an error's, small. One that cannot be read is closed.
     */
    private static void release(Object value, Exception failure) {
        Response response = responseOf(value, failure);
        if (response == null) {
            return;
        }
        try {
            response.bufferEntity();
        } catch (RuntimeException e) {
            response.close();
        }
    }

    private static Response responseOf(Object value, Exception failure) {
        if (value instanceof Response response) {
            return response;
        }
        return failure instanceof WebApplicationException e ? e.getResponse() : null;
    }

    private static int attemptNo(Frame frame) {
        return frame.attempts();
    }

    private boolean retryable(AttemptResult result) {
        return result.transientIo()
                || (result.status().isPresent()
                        && settings.retryStatuses().contains(result.status().getAsInt()));
    }

    private static String describe(AttemptResult result) {
        if (result.transientIo()) {
            return "an I/O failure";
        }
        return result.status().isPresent() ? "status " + result.status().getAsInt() : "a result";
    }

    /**
     * Warns once when this executor runs inside an attempt that another retrier repeats (Fault
     * Tolerance's {@code @Retry} on the operation, {@code OperationScope.attempt}): the attempts
     * multiply. The keys stay right; the load does not.
     */
    private static void warnIfRepeated() {
        if (OperationStack.current().map(Frame::attempts).orElse(0) > 1
                && WARNED_STACKED.compareAndSet(false, true)) {
            LOG.log(
                    Level.WARNING,
                    "idemkit's IdempotentRetry runs inside an attempt that another retrier repeats"
                            + " (Fault Tolerance's @Retry on the operation, OperationScope.attempt):"
                            + " their attempts multiply (max-retries=3 inside @Retry(maxRetries=3)"
                            + " sends a call up to 16 times). Retry with one of them.");
        }
    }

    private static void warnUnfiltered() {
        if (WARNED_UNFILTERED.compareAndSet(false, true)) {
            LOG.log(
                    Level.WARNING,
                    "idemkit's IdempotentRetry did not retry a call: none of its requests passed"
                            + " through IdempotencyClientFeature, so nothing says they carried a"
                            + " key. Register the feature on the client the call uses.");
        }
    }
}
