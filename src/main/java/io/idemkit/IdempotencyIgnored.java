package io.idemkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of an {@link Idempotent} CDI or EJB method that does not identify the
 * operation: a request id, a trace id, a timestamp. Its value is left out of the derived key and
 * out of the payload fingerprint, so that two calls that differ only in it are the same operation
 * (the second one replays the first one's result).
 *
 * <p>Without this marker, every argument that is not an {@link IdempotencyKey} is fingerprinted,
 * and a call that reuses a key with other arguments is refused with {@link
 * IdempotencyPayloadMismatchException}. A parameter cannot carry both markers; that fails the
 * deployment.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface IdempotencyIgnored {}
