package io.idemkit.interceptor;

import io.idemkit.core.MethodPolicyLookup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** Works out each intercepted method's {@link MethodPlan} once, and keeps it. Thread-safe. */
@ApplicationScoped
public class MethodPlans {

    private final MethodPolicyLookup policies;
    private final ArgumentJson json;
    private final Map<PlanKey, MethodPlan> plans = new ConcurrentHashMap<>();
    private volatile MessageDelivery messages;

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

    /**
     * The application's one message surface, made on the first message: interceptors come and go
     * with the beans they intercept (an instance per pooled message-driven bean), while what the
     * surface remembers, such as the last failure of each message, is the application's.
     *
     * @param make makes it, once
     * @return the message surface
     */
    MessageDelivery messages(Supplier<MessageDelivery> make) {
        MessageDelivery made = messages;
        if (made == null) {
            synchronized (this) {
                made = messages;
                if (made == null) {
                    made = make.get();
                    messages = made;
                }
            }
        }
        return made;
    }

    @PreDestroy
    void close() {
        json.close();
    }

    private record PlanKey(Class<?> beanClass, Method method) {}
}
