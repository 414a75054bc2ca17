package io.idemkit.client;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InterceptorBinding;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.atomic.AtomicInteger;

/** Beans of the interceptor tests, and a retry interceptor where Fault Tolerance puts its own. */
public final class OperationBeans {

    /** Where the beans send their requests; the test sets it. */
    public static volatile WebTarget base;

    /** How many more attempts fail after their first request; the test sets it. */
    public static final AtomicInteger failures = new AtomicInteger();

    private OperationBeans() {}

    static void post(String path) {
        base.path(path).request().post(Entity.text("x")).close();
    }

    static void maybeFail() {
        if (failures.getAndDecrement() > 0) {
            throw new IllegalStateException("the downstream call timed out");
        }
    }

    /** Retries a failed call up to three times, by proceeding again, as Fault Tolerance does. */
    @InterceptorBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    public @interface LikeRetry {}

    /** At Fault Tolerance's own priority, {@code PLATFORM_AFTER + 10}. */
    @LikeRetry
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_AFTER + 10)
    public static class LikeRetryInterceptor {
        @AroundInvoke
        Object retry(InvocationContext invocation) throws Exception {
            for (int attempt = 1; ; attempt++) {
                try {
                    return invocation.proceed();
                } catch (IllegalStateException e) {
                    if (attempt == 4) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Runs each attempt on a thread of its own, as Fault Tolerance's {@code @Asynchronous}. */
    @InterceptorBinding
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    public @interface LikeAsynchronousRetry {}

    /**
     * Runs each attempt on a thread of its own, and retries a failed one once, at Fault Tolerance's
     * priority: what {@code @Asynchronous} with {@code @Retry} does.
     */
    @LikeAsynchronousRetry
    @Interceptor
    @Priority(Interceptor.Priority.PLATFORM_AFTER + 10)
    public static class LikeAsynchronousRetryInterceptor {
        @AroundInvoke
        Object retry(InvocationContext invocation) throws Exception {
            for (int attempt = 1; ; attempt++) {
                Object[] result = new Object[1];
                Exception[] failure = new Exception[1];
                Thread thread =
                        new Thread(
                                () -> {
                                    try {
                                        result[0] = invocation.proceed();
                                    } catch (Exception e) {
                                        failure[0] = e;
                                    }
                                });
                thread.start();
                thread.join();
                if (failure[0] == null) {
                    return result[0];
                }
                if (attempt == 2) {
                    throw failure[0];
                }
            }
        }
    }

    @ApplicationScoped
    public static class Checkout {

        @Inject Shipping shipping;

        /** Pays, then books a shipment; a failure after paying makes the retry pay again. */
        @IdempotentOperation
        @LikeRetry
        public void checkout() {
            post("payments");
            maybeFail();
            shipping.book();
        }

        @IdempotentOperation
        public void place(@OperationKey String orderId) {
            post("orders");
        }

        @IdempotentOperation
        @LikeRetry
        public void placeWithRetry(@OperationKey String orderId) {
            post("orders");
            maybeFail();
        }

        @IdempotentOperation
        @LikeAsynchronousRetry
        public void checkoutOnAnotherThread() {
            post("payments");
            maybeFail();
        }

        /** Not an operation: each call, and each of its retries, keys requests on its own. */
        public void unscoped() {
            post("payments");
        }
    }

    @ApplicationScoped
    public static class Shipping {
        @IdempotentOperation
        public void book() {
            post("shipments");
        }
    }

    /** Retries a call of an operation method from outside it: the mistake C14.3 warns about. */
    @ApplicationScoped
    public static class RetryingCaller {

        @Inject Checkout checkout;

        @LikeRetry
        public void checkout() {
            checkout.checkout();
        }

        @LikeRetry
        public void place(String orderId) {
            checkout.placeWithRetry(orderId);
        }
    }

    @ApplicationScoped
    public static class MisplacedKey {
        public void send(@OperationKey String orderId) {}
    }

    @ApplicationScoped
    public static class TwoKeys {
        @IdempotentOperation
        public void send(@OperationKey String orderId, @OperationKey String lineId) {}
    }
}
