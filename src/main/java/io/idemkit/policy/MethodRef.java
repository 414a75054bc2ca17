package io.idemkit.policy;

import java.lang.reflect.Method;
import java.util.Objects;

/**
 * A method as seen on one bean class: the class it is called on may inherit it.
 *
 * @param beanClass the bean (or resource) class
 * @param method the method
 */
public record MethodRef(Class<?> beanClass, Method method) {

    /** Checks the components. */
    public MethodRef {
        Objects.requireNonNull(beanClass, "beanClass");
        Objects.requireNonNull(method, "method");
    }

    @Override
    public String toString() {
        return beanClass.getName() + "." + method.getName() + "()";
    }
}
