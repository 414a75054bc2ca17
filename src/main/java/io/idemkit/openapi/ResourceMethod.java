package io.idemkit.openapi;

import java.lang.reflect.Method;
import java.util.Objects;

/**
 * An {@code @Idempotent} JAX-RS resource method, as the deployment found it.
 *
 * @param resourceClass the resource class (the bean's class)
 * @param method the resource method
 */
public record ResourceMethod(Class<?> resourceClass, Method method) {

    /** Checks the components. */
    public ResourceMethod {
        Objects.requireNonNull(resourceClass, "resourceClass");
        Objects.requireNonNull(method, "method");
    }
}
