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

    /** Where each method's {@link OperationKey} and {@link StepKey} are; -1 for none. */
    private record KeyParameters(int operationKey, int stepKey) {}

    private static final Map<Method, KeyParameters> KEY_PARAMETERS = new ConcurrentHashMap<>();

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        KeyParameters at =
                KEY_PARAMETERS.computeIfAbsent(
                        invocation.getMethod(),
                        m ->
                                new KeyParameters(
                                        parameter(m, OperationKey.class),
                                        parameter(m, StepKey.class)));
        String stepName =
                at.stepKey() < 0 ? null : argument(invocation, at.stepKey(), "@StepKey", "a step");
        try (OperationScope scope = open(invocation, at.operationKey())) {
            if (stepName == null) {
                invocation.getContextData().put(FRAME, scope.frame());
                return invocation.proceed();
            }
            try (OperationScope step = IdempotentOperations.openStep(stepName)) {
                invocation.getContextData().put(FRAME, step.frame());
                return invocation.proceed();
            }
        }
    }

    private static OperationScope open(InvocationContext invocation, int keyAt) {
        if (keyAt < 0) {
            return IdempotentOperations.open();
        }
        return IdempotentOperations.open(
                argument(invocation, keyAt, "@OperationKey", "the operation"));
    }

    private static String argument(
            InvocationContext invocation, int at, String annotation, String what) {
        Object key = invocation.getParameters()[at];
        String text = key == null ? null : key.toString();
        String where =
                "The "
                        + annotation
                        + " argument of "
                        + invocation.getMethod().getDeclaringClass().getName()
                        + "."
                        + invocation.getMethod().getName();
        if (text == null || text.isBlank()) {
            throw new IdempotencyKeyMissingException(
                    where
                            + " is null or blank: pass the key of "
                            + what
                            + ", such as an order or item id");
        }
        if (!ownText(key.getClass())) {
            throw new IdempotencyKeyMissingException(
                    where
                            + " is a "
                            + key.getClass().getName()
                            + ", which has no toString() of its own: its text names the instance,"
                            + " not the value, and would be a new key for every call. Pass the"
                            + " id itself (a String, a number, a record, a UUID)");
        }
        return text;
    }

    /**
     * @return whether values of {@code type} have a text of their own: a {@code toString()} not
     *     inherited from {@code Object}, which names the instance only
     */
    private static boolean ownText(Class<?> type) {
        try {
            return type.getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * @return the index of the method's {@link OperationKey} parameter, -1 when it has none
     */
    static int keyParameter(Method method) {
        return parameter(method, OperationKey.class);
    }

    private static int parameter(Method method, Class<?> marker) {
        var annotations = method.getParameterAnnotations();
        for (int i = 0; i < annotations.length; i++) {
            for (var annotation : annotations[i]) {
                if (annotation.annotationType() == marker) {
                    return i;
                }
            }
        }
        return -1;
    }
}
