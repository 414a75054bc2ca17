package io.idemkit.message;

import io.idemkit.method.MessageTransport;
import java.lang.reflect.Method;

/**
 * Jakarta Messaging as a message transport: a message-driven bean's listener method, {@code
 * jakarta.jms.MessageListener.onMessage(Message)}, recognized by the names of its types, so that a
 * runtime without Jakarta Messaging never loads a class of it. Listed in {@code
 * META-INF/services/io.idemkit.method.MessageTransport}.
 */
public final class JmsTransport implements MessageTransport {

    /** The transport's name, which {@link MessageSurface} answers to. */
    public static final String NAME = "jms";

    private static final String LISTENER = "jakarta.jms.MessageListener";
    private static final String MESSAGE = "jakarta.jms.Message";

    /** For the service loader. */
    public JmsTransport() {}

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @return whether {@code method} is the bean's {@code onMessage(jakarta.jms.Message)} and the
     *     bean is a {@code jakarta.jms.MessageListener}
     */
    @Override
    public boolean receives(Class<?> beanClass, Method method) {
        return method.getName().equals("onMessage")
                && method.getParameterCount() == 1
                && method.getParameterTypes()[0].getName().equals(MESSAGE)
                && method.getReturnType() == void.class
                && implementsListener(beanClass);
    }

    private static boolean implementsListener(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals(LISTENER) || implementsListener(i)) {
                    return true;
                }
            }
        }
        return false;
    }
}
