package io.idemkit.client;

import io.idemkit.IdempotencyKeyMissingException;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Internal: no compatibility guaranteed; public for the container only.
 *
 * <p>Fixes the operation of an {@link IdempotentOperation} method call (C14.1), outside every retry
 * (C14.3). Stateless apart from a cache of where each method's {@link OperationKey} is.
 */
@IdempotentOperation
@Interceptor
@Priority(OperationInterceptor.PRIORITY)
public class OperationInterceptor {

    /**
     * {@code Interceptor.Priority.LIBRARY_BEFORE + 100} (1100): outside Fault Tolerance's
     * interceptor ({@code PLATFORM_AFTER + 10}) and every application interceptor (from {@code
     * APPLICATION}, 2000), so that their retries repeat the call inside one operation.
     */
    public static final int PRIORITY = Interceptor.Priority.LIBRARY_BEFORE + 100;

    /** Where the call's level is handed to {@link AttemptInterceptor}, in the context data. */
    static final String FRAME = OperationInterceptor.class.getName() + ".frame";

    private static final Map<Method, Integer> KEY_PARAMETERS = new ConcurrentHashMap<>();

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        int keyAt =
                KEY_PARAMETERS.computeIfAbsent(
                        invocation.getMethod(), OperationInterceptor::keyParameter);
        try (OperationScope scope = open(invocation, keyAt)) {
            invocation.getContextData().put(FRAME, scope.frame());
            return invocation.proceed();
        }
    }

    private static OperationScope open(InvocationContext invocation, int keyAt) {
        if (keyAt < 0) {
            return IdempotentOperations.open();
        }
        Object key = invocation.getParameters()[keyAt];
        String text = key == null ? null : key.toString();
        if (text == null || text.isBlank()) {
            throw new IdempotencyKeyMissingException(
                    "The @OperationKey argument of "
                            + invocation.getMethod().getDeclaringClass().getName()
                            + "."
                            + invocation.getMethod().getName()
                            + " is null or blank: pass the operation's key, such as an order id");
        }
        return IdempotentOperations.open(text);
    }

    /**
     * @return the index of the method's {@link OperationKey} parameter, -1 when it has none
     */
    static int keyParameter(Method method) {
        var annotations = method.getParameterAnnotations();
        for (int i = 0; i < annotations.length; i++) {
            for (var annotation : annotations[i]) {
                if (annotation.annotationType() == OperationKey.class) {
                    return i;
                }
            }
        }
        return -1;
    }
}
