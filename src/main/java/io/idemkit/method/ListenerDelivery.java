package io.idemkit.method;

import jakarta.interceptor.InvocationContext;

/**
 * Where the method surface hands a message listener method ({@link MessageTransport}): a delivery
 * is keyed by its message, not its arguments, and acknowledged or redelivered rather than replayed
 * (C11, C17). Each transport's wing, a package above this one, implements it as one bean of the
 * application, so that this package never loads a class of a transport's API.
 */
public interface ListenerDelivery {

    /**
     * @return the name of the {@link MessageTransport} whose listener methods this delivers
     */
    String transport();

    /**
     * Delivers one message to the bean, or acknowledges it as a duplicate, or asks for its
     * redelivery.
     *
     * @param invocation the intercepted listener method ({@code onMessage(jakarta.jms.Message)}, an
     *     {@code @Incoming} method)
     * @param beanClass the listener's bean class
     * @param plan the method's plan, which {@link MethodPlan#receivesMessages()}
     * @return what the listener method returns to its container or connector
     * @throws Exception the bean's own failure, or a refusal when no transaction can be marked
     */
    Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception;
}
