package io.idemkit.reactive;

import io.idemkit.policy.ReactiveMessagingNames;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The two forms of an {@code @Idempotent @Incoming} method that takes a {@code Message} (C17): a
 * consumer returns a {@code CompletionStage} (of {@code Void}); a processor, {@code @Outgoing} too,
 * returns the outgoing {@code Message<O>}, or a {@code CompletionStage} of it. What each returns to
 * the connector when it sends nothing on, and when it sends a message. Immutable.
 *
 * @param processor whether the method is {@code @Outgoing} too
 * @param stage whether it returns a {@code CompletionStage}
 * @param payload a processor's outgoing payload type {@code O}; {@code Object} for a consumer, or a
 *     processor that does not name it
 */
record MethodForm(boolean processor, boolean stage, Type payload) {

    static MethodForm of(Method method) {
        // By name, as the transport recognized it: the application's annotation, whichever copy
        // of the API its class loader sees.
        boolean processor =
                ReactiveMessagingNames.annotation(method, ReactiveMessagingNames.OUTGOING)
                        .isPresent();
        boolean stage = CompletionStage.class.isAssignableFrom(method.getReturnType());
        Type payload = Object.class;
        if (processor) {
            Type message = method.getGenericReturnType();
            if (stage) {
                message = argument(message);
            }
            payload = argument(message);
        }
        return new MethodForm(processor, stage, payload);
    }

    /**
     * What the method returns when it sends nothing on, once {@code acknowledgement} (the record's
     * ack or nack) is under way: a consumer returns that stage itself; a processor returns nothing
     * ({@code null}, which Reactive Messaging skips), as its record is acknowledged already.
     */
    Object nothing(CompletionStage<Void> acknowledgement) {
        if (!processor) {
            return acknowledgement;
        }
        return stage ? acknowledgement.thenApply(done -> null) : null;
    }

    /** What a processor returns to send {@code out} on. */
    Object output(Message<?> out) {
        return stage ? CompletableFuture.completedFuture(out) : out;
    }

    private static Type argument(Type type) {
        return type instanceof ParameterizedType parameterized
                        && parameterized.getActualTypeArguments().length == 1
                ? parameterized.getActualTypeArguments()[0]
                : Object.class;
    }
}
