package io.idemkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameters of an {@link Idempotent} CDI or EJB method whose values form the idempotency
 * key. When several parameters carry it, their values are combined in declaration order. A {@code
 * null} or empty key value is refused with {@link IdempotencyKeyMissingException}.
 *
 * <p>Without any {@code @IdempotencyKey} parameter the key is derived from all the arguments. That
 * is a footgun: two calls that differ in an argument you did not mean to matter (a timestamp, a
 * request id) are then different operations, and both run.
 *
 * <p>This annotation has no effect on JAX-RS resource methods, whose key is the {@code
 * Idempotency-Key} request header.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface IdempotencyKey {}
