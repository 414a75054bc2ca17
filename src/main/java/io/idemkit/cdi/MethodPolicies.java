package io.idemkit.cdi;

import io.idemkit.Idempotent;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.OperationPolicy;
import io.idemkit.method.MessageTransports;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.IdempotentPolicy;
import io.idemkit.policy.MethodRef;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operation policy of each {@link Idempotent} method, shared by both surfaces (the interceptor
 * and the JAX-RS filter pair): the global {@code idemkit.*} defaults, overridden by the class's
 * annotation, the class's configuration keys, the method's annotation and the method's
 * configuration keys, in that order (see {@link io.idemkit.policy.PerMethodConfig}), with the
 * {@link io.idemkit.spi.IdempotencyRedactor} bean the same sources choose (see {@link Redactors}).
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
                        Map<String, String> members =
                                IdempotentPolicy.members(beanClass, method, ConfigLookup.current());
                        OperationPolicy known = extension.methodPolicy(ref);
                        OperationPolicy policy =
                                known != null
                                        ? known
                                        : IdempotentPolicy.resolve(members, config.defaults());
                        if (MessageTransports.installed()
                                .receiving(beanClass, method)
                                .isPresent()) {
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
    public <T> T keyExtractor(Class<?> beanClass, String className, Class<T> spi) {
        try {
            return NamedBeans.reference(beans, beanClass, className, spi);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "Invalid key extractor of " + beanClass.getName() + ": " + e.getMessage(), e);
        }
    }
}
