package io.idemkit.method;

import io.idemkit.core.MethodPolicyLookup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Works out each intercepted method's {@link MethodPlan} once, and keeps it. Thread-safe. */
@ApplicationScoped
public class MethodPlans {

    private final MethodPolicyLookup policies;
    private final ArgumentJson json;
    private final Map<PlanKey, MethodPlan> plans = new ConcurrentHashMap<>();

    /** For the CDI client proxy only. */
    protected MethodPlans() {
        this.policies = null;
        this.json = null;
    }

    @Inject
    MethodPlans(MethodPolicyLookup policies) {
        this.policies = policies;
        this.json = new ArgumentJson();
    }

    MethodPlan planFor(Class<?> beanClass, Method method) {
        return plans.computeIfAbsent(
                new PlanKey(beanClass, method),
                k ->
                        policies.isJaxRsResourceMethod(beanClass, method)
                                ? MethodPlan.passThrough(beanClass, method)
                                : MethodPlan.of(
                                        beanClass, method, policies.policyFor(beanClass, method)));
    }

    ArgumentJson json() {
        return json;
    }

    @PreDestroy
    void close() {
        json.close();
    }

    private record PlanKey(Class<?> beanClass, Method method) {}
}
