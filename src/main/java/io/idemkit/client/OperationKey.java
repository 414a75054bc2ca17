package io.idemkit.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of an {@link IdempotentOperation} method whose value (its {@code toString()})
 * is the operation's key, chosen by the application (C14.1): an order id, a message id, a job run's
 * id. The same value gives the same request keys in every process, so a retry after a restart, or a
 * {@code @Retry} on a caller, is recognized by the server too. Name one operation, never two: two
 * operations under one key that send the same method to the same path share keys. At most one
 * parameter of a method; a {@code null} or blank value throws {@code
 * IdempotencyKeyMissingException} and the method does not run.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface OperationKey {}
