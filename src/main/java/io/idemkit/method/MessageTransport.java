package io.idemkit.method;

import java.lang.reflect.Method;

/**
 * A kind of message listener method, which the method surface hands to its transport's {@link
 * ListenerDelivery} instead of keying it by its arguments: Jakarta Messaging's {@code onMessage}
 * (C11), MicroProfile Reactive Messaging's {@code @Incoming} methods that take a {@code Message}
 * (C17). A transport's wing lists its implementation in {@code
 * META-INF/services/io.idemkit.method.MessageTransport}; it is loaded whether or not the
 * transport's API is on the class path, so it names no type of that API and answers by names.
 *
 * <p>Internal: no compatibility guaranteed.
 */
public interface MessageTransport {

    /**
     * @return the transport's name, which its {@link ListenerDelivery} answers to ({@code jms},
     *     {@code reactive-messaging})
     */
    String name();

    /**
     * @param beanClass the bean class
     * @param method a method as seen on it
     * @return whether {@code method} is one of this transport's listener methods
     */
    boolean receives(Class<?> beanClass, Method method);
}
