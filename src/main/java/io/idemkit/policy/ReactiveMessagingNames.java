package io.idemkit.policy;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MicroProfile Reactive Messaging's types, by name, for the code that must recognize an {@code
 * Incoming} method (C17) where the API may be absent, without loading a class of it.
 */
public final class ReactiveMessagingNames {

    /** {@code @Incoming}, whose {@code value} is the channel. */
    public static final String INCOMING = "org.eclipse.microprofile.reactive.messaging.Incoming";

    /**
     * SmallRye's {@code @Incomings}, whose {@code value} holds several {@code @Incoming}: one
     * method reading several channels (WildFly, Quarkus).
     */
    public static final String INCOMINGS = "io.smallrye.reactive.messaging.annotations.Incomings";

    /** {@code @Outgoing}. */
    public static final String OUTGOING = "org.eclipse.microprofile.reactive.messaging.Outgoing";

    /** {@code Message}. */
    public static final String MESSAGE = "org.eclipse.microprofile.reactive.messaging.Message";

    private ReactiveMessagingNames() {}

    /**
     * @param method a method
     * @return the channels it reads: its {@code @Incoming}'s, or each of its {@code @Incomings}';
     *     empty when it is no {@code Incoming} method
     */
    public static List<String> incomingChannels(Method method) {
        List<String> channels = new ArrayList<>();
        annotation(method, INCOMING)
                .flatMap(incoming -> value(incoming, String.class))
                .ifPresent(channels::add);
        annotation(method, INCOMINGS)
                .flatMap(incomings -> value(incomings, Annotation[].class))
                .ifPresent(
                        all -> {
                            for (Annotation incoming : all) {
                                value(incoming, String.class).ifPresent(channels::add);
                            }
                        });
        return channels;
    }

    /**
     * @param method a method
     * @return whether it is an {@code Incoming} method: {@code @Incoming} or {@code @Incomings}
     */
    public static boolean isIncoming(Method method) {
        return annotation(method, INCOMING).isPresent()
                || annotation(method, INCOMINGS).isPresent();
    }

    private static <T> Optional<T> value(Annotation annotation, Class<T> type) {
        try {
            Object value = annotation.annotationType().getMethod("value").invoke(annotation);
            return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
        } catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * @param method a method
     * @param name an annotation type's name
     * @return the method's annotation of that type, if it carries one
     */
    public static Optional<Annotation> annotation(Method method, String name) {
        for (Annotation annotation : method.getAnnotations()) {
            if (annotation.annotationType().getName().equals(name)) {
                return Optional.of(annotation);
            }
        }
        return Optional.empty();
    }
}
