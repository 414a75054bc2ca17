package io.idemkit.method;

import java.lang.reflect.Method;

/**
 * Recognizes a message-driven bean's listener method, {@code
 * jakarta.jms.MessageListener.onMessage(Message)}, by the names of its types, so that a runtime
 * without Jakarta Messaging never loads a class of it.
 */
public final class MessageListenerMethods {

    private static final String LISTENER = "jakarta.jms.MessageListener";
    private static final String MESSAGE = "jakarta.jms.Message";

    private MessageListenerMethods() {}

    /**
     * @param beanClass the bean class
     * @param method a method as seen on it
     * @return whether {@code method} is the bean's {@code onMessage(jakarta.jms.Message)} and the
     *     bean is a {@code jakarta.jms.MessageListener}
     */
    public static boolean isOnMessage(Class<?> beanClass, Method method) {
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
