package io.idemkit.bench;

import io.idemkit.core.ScopeResolver;
import io.idemkit.method.MethodPlan;
import io.idemkit.method.MethodPlans;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

/**
 * The effective key and the fingerprint of one intercepted method's arguments, computed by the very
 * plan, JSON-B instance and scope resolver the interceptor uses, through the two calls of the plan
 * that {@code IdempotentInterceptor.around} makes (with the scope of a call without a caller:
 * {@code resolve()}, where the interceptor asks {@code resolveCaller()}, which comes to the same
 * for the benchmark's anonymous calls).
 *
 * <p>Those calls are package-private in {@code io.idemkit.method}, and stay so: this class reaches
 * them through method handles from a private lookup (the benchmarks run on the class path, where
 * every package is open), held in static final fields, which the JIT inlines as it inlines a direct
 * call. So the benchmark measures the interceptor's own code from outside the product's packages,
 * and the product's API is not widened for it.
 */
final class MethodHashing {

    private static final MethodHandle PLAN_FOR;
    private static final MethodHandle JSON;
    private static final MethodHandle PASSES_THROUGH;
    private static final MethodHandle EFFECTIVE_KEY;
    private static final MethodHandle FINGERPRINT;

    static {
        try {
            MethodHandles.Lookup method =
                    MethodHandles.privateLookupIn(MethodPlans.class, MethodHandles.lookup());
            // The argument JSON's class is package-private: the handles take it as an Object.
            Class<?> json = method.findClass("io.idemkit.method.ArgumentJson");
            PLAN_FOR =
                    method.findVirtual(
                            MethodPlans.class,
                            "planFor",
                            MethodType.methodType(MethodPlan.class, Class.class, Method.class));
            JSON =
                    method.findVirtual(MethodPlans.class, "json", MethodType.methodType(json))
                            .asType(MethodType.methodType(Object.class, MethodPlans.class));
            PASSES_THROUGH =
                    method.findVirtual(
                            MethodPlan.class,
                            "passesThrough",
                            MethodType.methodType(boolean.class));
            EFFECTIVE_KEY =
                    method.findVirtual(
                                    MethodPlan.class,
                                    "effectiveKey",
                                    MethodType.methodType(
                                            String.class, Object[].class, String.class, json))
                            .asType(
                                    MethodType.methodType(
                                            String.class,
                                            MethodPlan.class,
                                            Object[].class,
                                            String.class,
                                            Object.class));
            FINGERPRINT =
                    method.findVirtual(
                                    MethodPlan.class,
                                    "fingerprint",
                                    MethodType.methodType(String.class, Object[].class, json))
                            .asType(
                                    MethodType.methodType(
                                            String.class,
                                            MethodPlan.class,
                                            Object[].class,
                                            Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MethodPlans plans;
    private final ScopeResolver scope;
    private final MethodPlan plan;

    /**
     * @param plans the application's plans (the interceptor's own cache)
     * @param scope the application's scope resolver
     * @param beanClass the bean class, as the interceptor sees it
     * @param method the intercepted method
     */
    MethodHashing(MethodPlans plans, ScopeResolver scope, Class<?> beanClass, Method method) {
        this.plans = plans;
        this.scope = scope;
        try {
            this.plan = (MethodPlan) PLAN_FOR.invokeExact(plans, beanClass, method);
            if ((boolean) PASSES_THROUGH.invokeExact(plan)) {
                throw new IllegalArgumentException(method + " is not intercepted");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param arguments the call's arguments
     * @return the effective key and the fingerprint
     */
    String[] hash(Object[] arguments) {
        try {
            return new String[] {
                (String)
                        EFFECTIVE_KEY.invokeExact(
                                plan, arguments, scope.resolve(), (Object) JSON.invokeExact(plans)),
                (String) FINGERPRINT.invokeExact(plan, arguments, (Object) JSON.invokeExact(plans))
            };
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param arguments the call's arguments
     * @return the effective key the interceptor stores the call under
     */
    String effectiveKey(Object[] arguments) {
        try {
            return (String)
                    EFFECTIVE_KEY.invokeExact(
                            plan, arguments, scope.resolve(), (Object) JSON.invokeExact(plans));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
