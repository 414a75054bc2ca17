package io.idemkit.policy;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * MicroProfile Reactive Messaging's types, by name, for the code that must recognize an {@code
 * Incoming} method (C17) where the API may be absent, without loading a class of it.
 */
public final class ReactiveMessagingNames {

    /** {@code @Incoming}, whose {@code value} is the channel. */
    public static final String INCOMING = "org.eclipse.microprofile.reactive.messaging.Incoming";

    /** {@code @Outgoing}. */
    public static final String OUTGOING = "org.eclipse.microprofile.reactive.messaging.Outgoing";

    /** {@code Message}. */
    public static final String MESSAGE = "org.eclipse.microprofile.reactive.messaging.Message";

    private ReactiveMessagingNames() {}

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
