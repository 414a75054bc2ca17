package io.idemkit.cdi;

import io.idemkit.Idempotent;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.IdempotentPolicy;
import io.idemkit.config.PerMethodConfig;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.OperationPolicy;
import io.idemkit.interceptor.MessageListenerMethods;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The operation policy of each {@link Idempotent} method, shared by both surfaces (the interceptor
 * and the JAX-RS filter pair): the global {@code idemkit.*} defaults, overridden by the class's
 * annotation, the class's configuration keys, the method's annotation and the method's
 * configuration keys, in that order (see {@link PerMethodConfig}), with the {@link
 * io.idemkit.spi.IdempotencyRedactor} bean the same sources choose (see {@link Redactors}).
 *
 * <p>Every class CDI discovered was resolved, and its errors reported, at deployment, so for those
 * {@link #policyFor} never fails. A class CDI never saw (a JAX-RS resource outside any bean
 * archive) is resolved on first use and then cached. Thread-safe.
 */
@ApplicationScoped
public class MethodPolicies implements MethodPolicyLookup {

    private final IdemkitExtension extension;
    private final IdemkitConfig config;
    private final BeanManager beans;
    private final Map<MethodRef, OperationPolicy> resolved = new ConcurrentHashMap<>();

    /** For the CDI client proxy only. */
    protected MethodPolicies() {
        this.extension = null;
        this.config = null;
        this.beans = null;
    }

    @Inject
    MethodPolicies(IdemkitExtension extension, IdemkitConfig config, BeanManager beans) {
        this.extension = extension;
        this.config = config;
        this.beans = beans;
    }

    @Override
    public OperationPolicy policyFor(Class<?> beanClass, Method method) {
        Objects.requireNonNull(beanClass, "beanClass");
        Objects.requireNonNull(method, "method");
        return resolved.computeIfAbsent(
                new MethodRef(beanClass, method),
                ref -> {
                    try {
                        Map<String, String> members = members(beanClass, method, configuration());
                        OperationPolicy known = extension.methodPolicy(ref);
                        OperationPolicy policy =
                                known != null
                                        ? known
                                        : IdempotentPolicy.resolve(members, config.defaults());
                        if (MessageListenerMethods.isOnMessage(beanClass, method)) {
                            // A message-driven bean stores only the library's own marker, never
                            // the application's data: no redactor applies, and none can fail a
                            // delivery (C4.10).
                            return policy;
                        }
                        // The redactor is a bean of the application: resolved on first use, its
                        // choice checked at deployment (C4.10).
                        return policy.withRedactor(Redactors.forMethod(beans, beanClass, members));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalStateException(
                                "Invalid @Idempotent(" + e.getMessage() + ") on " + ref, e);
                    }
                });
    }

    @Override
    public boolean isJaxRsResourceMethod(Class<?> beanClass, Method method) {
        return JaxRsResourceMethods.isResourceMethod(beanClass, method);
    }

    @Override
    public IdempotencyKeyExtractor keyExtractor(Class<?> resourceClass, String className) {
        try {
            return NamedBeans.reference(
                    beans, resourceClass, className, IdempotencyKeyExtractor.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "Invalid key extractor of " + resourceClass.getName() + ": " + e.getMessage(),
                    e);
        }
    }

    private static Config configuration() {
        return ConfigProvider.getConfig();
    }

    /**
     * Merges the sources of one method's policy.
     *
     * @throws IllegalArgumentException naming the member, its value and the rule it broke
     */
    static OperationPolicy resolve(
            Class<?> beanClass, Method method, OperationPolicy defaults, Config config) {
        return IdempotentPolicy.resolve(members(beanClass, method, config), defaults);
    }

    /**
     * @return the members one method's sources set, merged in their order of precedence
     */
    static Map<String, String> members(Class<?> beanClass, Method method, Config config) {
        Map<String, String> members = new LinkedHashMap<>();
        Class<?> declaring = method.getDeclaringClass();
        members.putAll(IdempotentPolicy.members(declaring.getAnnotation(Idempotent.class)));
        members.putAll(IdempotentPolicy.members(beanClass.getAnnotation(Idempotent.class)));
        if (declaring != beanClass) {
            members.putAll(PerMethodConfig.forClass(config, declaring.getName()));
        }
        members.putAll(PerMethodConfig.forClass(config, beanClass.getName()));
        members.putAll(IdempotentPolicy.members(method.getAnnotation(Idempotent.class)));
        if (declaring != beanClass) {
            members.putAll(
                    PerMethodConfig.forMethod(config, declaring.getName(), method.getName()));
        }
        members.putAll(PerMethodConfig.forMethod(config, beanClass.getName(), method.getName()));
        return members;
    }

    /** A method as seen on one bean class. */
    record MethodRef(Class<?> beanClass, Method method) {
        @Override
        public String toString() {
            return beanClass.getName() + "." + method.getName() + "()";
        }
    }
}
