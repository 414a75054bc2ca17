package io.idemkit.client;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a CDI bean's method (or every method of a bean class) one logical operation of the calling
 * side (C14.1): every request that a client with {@link IdempotencyClientFeature} sends from it, on
 * the calling thread, gets an {@code Idempotency-Key} derived from the operation's key (C14.2). Two
 * requests get two keys; a request sent again in another attempt of the method gets the key it had,
 * also when Fault Tolerance's {@code @Retry} on the same method repeats it (C14.3).
 *
 * <pre>{@code
 * @IdempotentOperation
 * @Retry(maxRetries = 3)
 * public Receipt checkout(Order order) {
 *     Payment p = payments.charge(order.payment());    // POST: one key, the same on every retry
 *     shipping.book(order.shipment());                 // POST: another key
 *     return new Receipt(p, order);
 * }
 * }</pre>
 *
 * <p>The operation's key is 128 random bits, or the {@link OperationKey} argument. A method called
 * inside an operation joins it (unless its {@link OperationKey} names another). Two interceptors
 * implement it: one at {@code Interceptor.Priority.LIBRARY_BEFORE + 100}, outside Fault Tolerance's
 * ({@code PLATFORM_AFTER + 10}) and any application interceptor, fixes the operation; one at {@code
 * PLATFORM_AFTER + 100}, inside them, marks each attempt. A {@code @Retry} on a <em>caller</em> of
 * this method calls it anew each time: each call is a new operation with new keys, unless an {@link
 * OperationKey} names it.
 */
@InterceptorBinding
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface IdempotentOperation {}
