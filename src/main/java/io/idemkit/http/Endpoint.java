package io.idemkit.http;

import io.idemkit.Idempotent;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * One {@code @Idempotent} resource method, as JAX-RS matched it.
 *
 * @param resourceClass the resource class
 * @param method the resource method
 * @param onMethod the annotation on the method, or {@code null}
 * @param onType the annotation on the class, or {@code null}
 */
record Endpoint(Class<?> resourceClass, Method method, Idempotent onMethod, Idempotent onType) {

    Endpoint {
        Objects.requireNonNull(resourceClass, "resourceClass");
        Objects.requireNonNull(method, "method");
        if (onMethod == null && onType == null) {
            throw new IllegalArgumentException("not an @Idempotent endpoint");
        }
    }

    @Override
    public String toString() {
        return resourceClass.getName() + "." + method.getName() + "()";
    }
}
