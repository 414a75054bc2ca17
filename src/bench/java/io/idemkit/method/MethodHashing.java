package io.idemkit.method;

import io.idemkit.core.ScopeResolver;
import java.lang.reflect.Method;

/**
 * Bench-only (compiled with the benchmarks, never into the library): the effective key and the
 * fingerprint of one intercepted method's arguments, computed by the very plan, JSON-B instance and
 * scope resolver the interceptor uses, through the same two expressions as {@code
 * IdempotentInterceptor.around}. It lives in the interceptor's package to reach the package-private
 * {@link MethodPlan} without widening it.
 */
public final class MethodHashing {

    private final MethodPlans plans;
    private final ScopeResolver scope;
    private final MethodPlan plan;

    /**
     * @param plans the application's plans (the interceptor's own cache)
     * @param scope the application's scope resolver
     * @param beanClass the bean class, as the interceptor sees it
     * @param method the intercepted method
     */
    public MethodHashing(
            MethodPlans plans, ScopeResolver scope, Class<?> beanClass, Method method) {
        this.plans = plans;
        this.scope = scope;
        this.plan = plans.planFor(beanClass, method);
        if (plan.passesThrough()) {
            throw new IllegalArgumentException(method + " is not intercepted");
        }
    }

    /**
     * @param arguments the call's arguments
     * @return the effective key and the fingerprint
     */
    public String[] hash(Object[] arguments) {
        return new String[] {
            plan.effectiveKey(arguments, scope.resolve(), plans.json()),
            plan.fingerprint(arguments, plans.json())
        };
    }

    /**
     * @param arguments the call's arguments
     * @return the effective key the interceptor stores the call under
     */
    public String effectiveKey(Object[] arguments) {
        return plan.effectiveKey(arguments, scope.resolve(), plans.json());
    }
}
