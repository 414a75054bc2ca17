package io.idemkit.core;

import java.lang.reflect.Method;

/**
 * What a surface needs to know of an annotated method, worked out by the CDI glue at deployment:
 * its operation policy, whether it is a JAX-RS resource method, and the bean a method names to take
 * its key. The surfaces depend on this interface, not on how the answers were found.
 * Implementations are thread-safe.
 */
public interface MethodPolicyLookup {

    /**
     * @param beanClass the bean (or resource) class the method is called on
     * @param method the method
     * @return the method's policy: the global defaults, the annotations and the per-method
     *     configuration keys, merged
     * @throws IllegalStateException for a class CDI never discovered whose annotation or
     *     configuration is invalid; the message names the method, the member and the rule
     */
    OperationPolicy policyFor(Class<?> beanClass, Method method);

    /**
     * @param beanClass the class the method is called on
     * @param method the method
     * @return whether it is a JAX-RS resource method, which the filter pair protects, so that the
     *     interceptor lets it through rather than claim it a second time (C7.4)
     */
    boolean isJaxRsResourceMethod(Class<?> beanClass, Method method);

    /**
     * @param beanClass the class whose method names the extractor
     * @param className the extractor's class, as the key policy names it
     * @param spi the extractor's interface: {@code IdempotencyKeyExtractor} for a resource method
     *     (C6.1), {@code RecordKeyExtractor} for an {@code @Incoming} method (C17.1)
     * @return the application's bean of that class
     * @throws IllegalStateException when it is no such bean, for a class CDI never discovered; the
     *     deployment checked every other one
     */
    <T> T keyExtractor(Class<?> beanClass, String className, Class<T> spi);
}
