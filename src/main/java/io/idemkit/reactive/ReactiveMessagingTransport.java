package io.idemkit.reactive;

import static io.idemkit.policy.ReactiveMessagingNames.MESSAGE;
import static io.idemkit.policy.ReactiveMessagingNames.OUTGOING;

import io.idemkit.method.MessageTransport;
import io.idemkit.policy.MethodSite;
import io.idemkit.policy.ReactiveMessagingNames;
import java.lang.reflect.Method;

/**
 * MicroProfile Reactive Messaging as a message transport: an {@code @Incoming} method that takes
 * one {@code Message<T>}, the form in which the method, and so the library, decides when the record
 * is acknowledged: a consumer, which returns a {@code CompletionStage}, or a processor,
 * {@code @Outgoing} too, which returns the outgoing {@code Message} or a {@code CompletionStage} of
 * it. Recognized by the names of its types, so that a runtime without Reactive Messaging never
 * loads a class of it. Listed in {@code META-INF/services/io.idemkit.method.MessageTransport}.
 *
 * <p>Other {@code @Incoming} forms (a payload parameter) stay the method surface's (C7): keyed by
 * their arguments, a duplicate gets the stored return value.
 */
public final class ReactiveMessagingTransport implements MessageTransport {

    /** The transport's name, which {@link ReactiveSurface} answers to. */
    public static final String NAME = MethodSite.REACTIVE_MESSAGING;

    private static final String STAGE = "java.util.concurrent.CompletionStage";

    /** For the service loader. */
    public ReactiveMessagingTransport() {}

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @return whether {@code method} is {@code @Incoming} (or SmallRye's {@code @Incomings}), takes
     *     one {@code Message} and returns a {@code CompletionStage}, or, {@code @Outgoing} too, a
     *     {@code Message}
     */
    @Override
    public boolean receives(Class<?> beanClass, Method method) {
        if (method.getParameterCount() != 1
                || !method.getParameterTypes()[0].getName().equals(MESSAGE)
                || !ReactiveMessagingNames.isIncoming(method)) {
            return false;
        }
        String returned = method.getReturnType().getName();
        return returned.equals(STAGE)
                || (returned.equals(MESSAGE)
                        && ReactiveMessagingNames.annotation(method, OUTGOING).isPresent());
    }
}
