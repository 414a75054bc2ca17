package io.idemkit.cdi;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Tells JAX-RS resource methods apart (contract C7.4): a method that carries a request method
 * designator, an annotation meta-annotated with {@code jakarta.ws.rs.HttpMethod} such as
 * {@code @POST}, on itself or, by JAX-RS annotation inheritance, on the same method of a superclass
 * or an interface. The JAX-RS filter pair handles those, so the interceptor must not claim them a
 * second time. Works by name, so that the JAX-RS API need not be present.
 */
final class JaxRsResourceMethods {

    private static final String HTTP_METHOD = "jakarta.ws.rs.HttpMethod";

    private JaxRsResourceMethods() {}

    /**
     * @param beanClass the class the method is called on
     * @param method the method
     * @return whether it is a JAX-RS resource method
     */
    static boolean isResourceMethod(Class<?> beanClass, Method method) {
        if (hasDesignator(method)) {
            return true;
        }
        Deque<Class<?>> pending = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        pending.add(beanClass);
        pending.add(method.getDeclaringClass());
        while (!pending.isEmpty()) {
            Class<?> type = pending.poll();
            if (type == null || type == Object.class || !seen.add(type)) {
                continue;
            }
            try {
                if (hasDesignator(
                        type.getDeclaredMethod(method.getName(), method.getParameterTypes()))) {
                    return true;
                }
            } catch (NoSuchMethodException e) {
                // not declared here; look further up
            }
            if (type.getSuperclass() != null) { // null for an interface
                pending.add(type.getSuperclass());
            }
            pending.addAll(java.util.List.of(type.getInterfaces()));
        }
        return false;
    }

    private static boolean hasDesignator(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            for (Annotation meta : annotation.annotationType().getAnnotations()) {
                if (meta.annotationType().getName().equals(HTTP_METHOD)) {
                    return true;
                }
            }
        }
        return false;
    }
}
