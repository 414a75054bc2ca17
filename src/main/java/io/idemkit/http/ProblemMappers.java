package io.idemkit.http;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyResultNotStorableException;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Maps the library's exceptions, thrown by an {@code @Idempotent} CDI or EJB method that a JAX-RS
 * resource calls, to the problem+json answers of the HTTP surface for the same situations (C7.5,
 * C6.4), so that they never reach the client as a 500 with a stack trace. The body is that of
 * {@link ProblemResponses}: it says what the client should do and never echoes the exception's
 * message, the key or a payload. The work of the public feature {@code
 * io.idemkit.rest.IdempotencyExceptionMappers}, which says why the mappers have {@link #PRIORITY}.
 */
public final class ProblemMappers {

    private ProblemMappers() {}

    /**
     * The priority of every mapper: {@code Priorities.USER + 1000}, so that an application mapper
     * of the same exception type, with the default priority {@code Priorities.USER} or any up to
     * this number, replaces ours.
     */
    public static final int PRIORITY = Priorities.USER + 1000;

    /**
     * @param context where the mappers are registered
     * @return whether they were: on a server, not on a JAX-RS client
     */
    public static boolean configure(FeatureContext context) {
        // The service loader also offers features to JAX-RS clients, which have no use for these.
        if (context.getConfiguration().getRuntimeType() != RuntimeType.SERVER) {
            return false;
        }
        Supplier<ProblemResponses> problems = new LazyProblems();
        context.register(new InProgress(problems), PRIORITY);
        context.register(new PayloadMismatch(problems), PRIORITY);
        context.register(new Storage(problems), PRIORITY);
        context.register(new KeyMissing(problems), PRIORITY);
        context.register(new ResultNotStorable(problems), PRIORITY);
        context.register(new ScopeUnavailable(problems), PRIORITY);
        return true;
    }

    /** 423 (409 in the Stripe dialect) {@code urn:idemkit:in-progress} with {@code Retry-After}. */
    @Priority(PRIORITY)
    public static final class InProgress
            implements ExceptionMapper<IdempotencyInProgressException> {
        private final Supplier<ProblemResponses> problems;

        InProgress(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyInProgressException e) {
            return problems.get().inProgress(e);
        }
    }

    /** 422 (409 in the Stripe dialect) {@code urn:idemkit:payload-mismatch}. */
    @Priority(PRIORITY)
    public static final class PayloadMismatch
            implements ExceptionMapper<IdempotencyPayloadMismatchException> {
        private final Supplier<ProblemResponses> problems;

        PayloadMismatch(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyPayloadMismatchException e) {
            return problems.get().payloadMismatch();
        }
    }

    /** 503 {@code urn:idemkit:storage-error} with {@code Retry-After}, whatever its kind. */
    @Priority(PRIORITY)
    public static final class Storage implements ExceptionMapper<IdempotencyStorageException> {
        private final Supplier<ProblemResponses> problems;

        Storage(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyStorageException e) {
            return problems.get().storageError();
        }
    }

    /** 400 {@code urn:idemkit:missing-key}. */
    @Priority(PRIORITY)
    public static final class KeyMissing
            implements ExceptionMapper<IdempotencyKeyMissingException> {

        /** The method surface's message names the method: internal detail, so it is not sent. */
        static final String DETAIL =
                "The operation needs an idempotency key, and the request gave none or an invalid"
                        + " one. Send a key of 1 to 255 UTF-8 bytes.";

        private final Supplier<ProblemResponses> problems;

        KeyMissing(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyKeyMissingException e) {
            return problems.get().missingKey(DETAIL);
        }
    }

    /**
     * 500 {@code urn:idemkit:result-not-storable}: the operation ran, its result was not stored.
     */
    @Priority(PRIORITY)
    public static final class ResultNotStorable
            implements ExceptionMapper<IdempotencyResultNotStorableException> {
        private final Supplier<ProblemResponses> problems;

        ResultNotStorable(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyResultNotStorableException e) {
            return problems.get().resultNotStorable();
        }
    }

    /** 500 {@code urn:idemkit:identity-unavailable} (C5). */
    @Priority(PRIORITY)
    public static final class ScopeUnavailable
            implements ExceptionMapper<IdempotencyScopeUnavailableException> {
        private final Supplier<ProblemResponses> problems;

        ScopeUnavailable(Supplier<ProblemResponses> problems) {
            this.problems = Objects.requireNonNull(problems, "problems");
        }

        @Override
        public Response toResponse(IdempotencyScopeUnavailableException e) {
            return problems.get().identityUnavailable();
        }
    }

    /** Reads the dialect on the first mapped exception, when the CDI container is certainly up. */
    private static final class LazyProblems implements Supplier<ProblemResponses> {

        private volatile ProblemResponses resolved;

        @Override
        public ProblemResponses get() {
            ProblemResponses p = resolved;
            if (p == null) {
                p =
                        new ProblemResponses(
                                CDI.current().select(HttpSettings.class).get().compatMode());
                resolved = p;
            }
            return p;
        }
    }
}
