package io.idemkit.method;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The message transports the library's service file lists ({@link MessageTransport}), asked which
 * one, if any, receives a method. Immutable.
 */
public final class MessageTransports {

    private static final MessageTransports INSTALLED = load();

    private final List<MessageTransport> transports;

    /**
     * @param transports the transports, asked in this order
     */
    public MessageTransports(List<MessageTransport> transports) {
        this.transports = List.copyOf(transports);
    }

    /**
     * @return the transports of the library's jar
     */
    public static MessageTransports installed() {
        return INSTALLED;
    }

    /**
     * @param beanClass the bean class
     * @param method a method as seen on it
     * @return the transport whose listener method it is, or empty for any other method
     */
    public Optional<MessageTransport> receiving(Class<?> beanClass, Method method) {
        return transports.stream().filter(t -> t.receives(beanClass, method)).findFirst();
    }

    private static MessageTransports load() {
        List<MessageTransport> found = new ArrayList<>();
        ServiceLoader.load(MessageTransport.class, MessageTransports.class.getClassLoader())
                .forEach(found::add);
        return new MessageTransports(found);
    }
}
