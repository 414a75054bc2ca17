package io.idemkit.rest;

import io.idemkit.http.ProblemMappers;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Maps the library's exceptions, thrown by an {@code @Idempotent} CDI or EJB method that a JAX-RS
 * resource calls, to the problem+json answers of the HTTP surface for the same situations (C7.5,
 * C6.4), so that they never reach the client as a 500 with a stack trace. The body says what the
 * client should do and never echoes the exception's message, the key or a payload.
 *
 * <p>Found like {@link IdempotencyFeature}: JAX-RS 3.1 loads a {@code Feature} through the service
 * loader ({@code META-INF/services/jakarta.ws.rs.core.Feature}), whether the application relies on
 * scanning or lists its classes in {@code Application.getClasses()}. An application that turns
 * service loading off ({@code jakarta.ws.rs.loadServices=false}) lists this class there. The class
 * carries a {@code @Priority} of its own because RESTEasy's service loader (Open Liberty's {@code
 * restfulWS-3.1}) keeps one feature per priority: without it, this feature and {@link
 * IdempotencyAdminFeature}, both at the default priority, would be one, and the mappers were never
 * registered.
 *
 * <p>The application's own mappers win: JAX-RS picks the mapper of the nearest exception type, then
 * the highest priority (the lowest number) among mappers of that type. Ours have {@link #PRIORITY},
 * below an application mapper's default ({@link Priorities#USER}), so an application mapper of one
 * of these exception types replaces ours. An application mapper of {@code Exception}, {@code
 * RuntimeException} or {@code IdempotencyException} does not: ours are of a nearer type. That is
 * deliberate, since a catch-all mapper is usually written for unexpected failures and would turn a
 * 423 with {@code Retry-After} back into a 500; to take these over, map their exact types.
 */
@Priority(IdempotencyExceptionMappers.PRIORITY)
public final class IdempotencyExceptionMappers implements Feature {

    /**
     * The priority of every mapper: {@code Priorities.USER + 1000}, so that an application mapper
     * of the same exception type, with the default priority {@code Priorities.USER} or any up to
     * this number, replaces ours.
     */
    public static final int PRIORITY = ProblemMappers.PRIORITY;

    /** For the runtime, which creates it by reflection or through the service loader. */
    public IdempotencyExceptionMappers() {}

    @Override
    public boolean configure(FeatureContext context) {
        return ProblemMappers.configure(context);
    }
}
