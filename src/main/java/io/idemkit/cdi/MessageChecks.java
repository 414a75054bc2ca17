package io.idemkit.cdi;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.MessageLeaseRule;
import io.idemkit.config.MessagePolicy;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.OperationPolicy;
import io.idemkit.interceptor.MessageListenerMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The deployment's checks of every {@code @Idempotent} message-driven bean's {@code onMessage}
 * (C11): its message settings, whether its deliveries can be scoped, and the lease rule. Each
 * returns one message per broken rule, naming the bean.
 */
final class MessageChecks {

    private MessageChecks() {}

    /**
     * @return the problems of the message listeners among {@code methods}; empty when there are
     *     none, or none is broken
     */
    static List<String> problems(
            IdemkitConfig read,
            List<MethodPolicies.MethodRef> methods,
            Map<MethodPolicies.MethodRef, OperationPolicy> policies,
            Config config) {
        List<String> problems = new ArrayList<>();
        for (MethodPolicies.MethodRef ref : methods) {
            if (!MessageListenerMethods.isOnMessage(ref.beanClass(), ref.method())) {
                continue;
            }
            try {
                MessagePolicy.resolve(
                        config,
                        ref.beanClass().getName(),
                        ref.method().getName(),
                        read.messageDefaults());
            } catch (IllegalArgumentException e) {
                problems.add("Invalid " + e.getMessage());
            }
            if (read.scopeSource() == ScopeSource.PRINCIPAL) {
                problems.add(principalScope(ref));
            }
            OperationPolicy policy = policies.get(ref);
            problems.addAll(
                    MessageLeaseRule.problems(
                            ref.toString(),
                            policy.leaseTtl(),
                            policy.waitTimeout(),
                            read.messageTransactionTimeout()));
        }
        return problems;
    }

    /**
     * {@code scope-source=principal} fails every call without an authenticated caller (C5), and a
     * delivery has none: Jakarta EE's run-as identity is the one a bean calls others with, not its
     * caller's, and the vendor descriptors that give a message-driven bean a principal give it one
     * name for every message, a scope that would look like isolation without being it. Every
     * message would be given up unrun (C11.6), so the deployment is refused instead.
     */
    private static String principalScope(MethodPolicies.MethodRef ref) {
        return ConfigKeys.SCOPE_SOURCE
                + "=principal cannot scope the messages of "
                + ref
                + ": a message delivery has no authenticated caller (a run-as identity is the one"
                + " the bean calls others with), so every message would be given up unrun. Set "
                + ConfigKeys.SCOPE_SOURCE
                + "=auto (authenticated callers are still scoped by their principal, and message"
                + " deliveries share the single-tenant scope), or provide an"
                + " IdempotencyScopeProvider bean that answers during a delivery.";
    }
}
