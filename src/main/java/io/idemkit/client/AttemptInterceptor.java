package io.idemkit.client;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Internal: no compatibility guaranteed; public for the container only.
 *
 * <p>Marks each attempt of an {@link IdempotentOperation} method call, inside every retry (C14.3):
 * a retry that repeats the method numbers its requests again from where the first attempt began, so
 * that each gets the key it had. Stateless.
 */
@IdempotentOperation
@Interceptor
@Priority(AttemptInterceptor.PRIORITY)
public class AttemptInterceptor {

    /**
     * {@code Interceptor.Priority.PLATFORM_AFTER + 100} (4100): inside Fault Tolerance's
     * interceptor ({@code PLATFORM_AFTER + 10}), which calls it once per attempt, on the attempt's
     * thread (also for {@code @Asynchronous}).
     */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_AFTER + 100;

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        if (!(invocation.getContextData().get(OperationInterceptor.FRAME) instanceof Frame frame)) {
            return invocation.proceed();
        }
        return frame.attempt(invocation::proceed);
    }
}
