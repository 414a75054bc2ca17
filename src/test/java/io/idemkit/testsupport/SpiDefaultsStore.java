package io.idemkit.testsupport;

import io.idemkit.spi.IdempotencyStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * An application's own store, named {@code custom}, that implements only what the SPI requires and
 * keeps every default method: {@code purgeExpired()} refuses and {@code health()} reads a key,
 * although the store it forwards to could do better.
 */
public final class SpiDefaultsStore {

    private SpiDefaultsStore() {}

    /**
     * @param delegate answers the SPI's abstract methods, except {@code name()}
     * @return the store
     */
    public static IdempotencyStore over(IdempotencyStore delegate) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    if (method.getName().equals("name") && method.getParameterCount() == 0) {
                        return "custom";
                    }
                    return forward(delegate, method, args);
                };
        return (IdempotencyStore)
                Proxy.newProxyInstance(
                        IdempotencyStore.class.getClassLoader(),
                        new Class<?>[] {IdempotencyStore.class},
                        handler);
    }

    /** Calls {@code method} on {@code target}, throwing what it throws. */
    static Object forward(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
