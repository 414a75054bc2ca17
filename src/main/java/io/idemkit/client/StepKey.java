package io.idemkit.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of an {@link IdempotentOperation} method whose value (its {@code toString()})
 * names the call as a step of the enclosing operation (C14.2), as {@link
 * IdempotentOperations#openStep} does: an item's id in a batch. The call's requests get keys
 * derived from the operation's key and that name, numbered among the step's own requests only, so a
 * run resumed after a crash that skips the finished items gives each remaining item the key it had.
 * With an {@link OperationKey} on the same method, the call opens (or joins) that operation and is
 * a step of it. At most one parameter of a method; a {@code null} or blank value throws {@code
 * IdempotencyKeyMissingException} and the method does not run.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface StepKey {}
