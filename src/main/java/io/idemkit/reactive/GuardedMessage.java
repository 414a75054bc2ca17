package io.idemkit.reactive;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The message an {@code @Idempotent} method receives in place of the connector's (C17.2): the same
 * payload, metadata and {@code unwrap}, but its first {@code ack} stores the completion before the
 * connector's acknowledgement runs, and its first {@code nack} releases the claim before the
 * connector's failure strategy does. A message built from it ({@code withPayload}, {@code
 * withMetadata}: the interface's own default methods) acknowledges through it too.
 *
 * <p>A {@link Proxy} of the runtime's {@code Message} interface, not a class of the library: the
 * interface has more methods on SmallRye (WildFly) than in the MicroProfile API (Open Liberty), and
 * each is passed on to the connector's message.
 */
final class GuardedMessage implements InvocationHandler {

    /** What becomes of the run when the method, or the library, decides its outcome. */
    interface Outcome {
        /** The method acknowledged the record: store its completion. */
        void acknowledged();

        /** The method nacked the record, threw, or its stage failed: release the claim. */
        void failed(Throwable failure);
    }

    private final Message<?> original;
    private final Outcome outcome;
    private final AtomicBoolean decided = new AtomicBoolean();

    private GuardedMessage(Message<?> original, Outcome outcome) {
        this.original = original;
        this.outcome = outcome;
    }

    /**
     * @return the message to hand the method, and the guard that {@link #fail} ends from outside
     */
    static GuardedMessage guard(Message<?> original, Outcome outcome) {
        return new GuardedMessage(original, outcome);
    }

    Message<?> message() {
        return (Message<?>)
                Proxy.newProxyInstance(
                        Message.class.getClassLoader(), new Class<?>[] {Message.class}, this);
    }

    /**
     * Ends the run as failed unless the method acknowledged or nacked it already: it threw, or its
     * stage failed.
     */
    void fail(Throwable failure) {
        if (decided.compareAndSet(false, true)) {
            outcome.failed(failure);
        }
    }

    private CompletionStage<Void> ack(Supplier<CompletionStage<Void>> connector) {
        if (decided.compareAndSet(false, true)) {
            outcome.acknowledged();
        }
        return connector.get();
    }

    private CompletionStage<Void> nack(
            Throwable reason, Supplier<CompletionStage<Void>> connector) {
        fail(reason);
        return connector.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (method.getDeclaringClass() == Object.class) {
            return switch (name) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "idemkit-guarded " + original;
            };
        }
        switch (name) {
            case "ack":
                return ack(() -> (CompletionStage<Void>) pass(method, args));
            case "nack":
                return nack((Throwable) args[0], () -> (CompletionStage<Void>) pass(method, args));
            case "getAck":
                return (Supplier<CompletionStage<Void>>) () -> ack(original::ack);
            case "getNack":
                return (Function<Throwable, CompletionStage<Void>>)
                        t -> nack(t, () -> original.nack(t));
            case "getAckWithMetadata":
                {
                    Function<Object, CompletionStage<Void>> connector =
                            (Function<Object, CompletionStage<Void>>) pass(method, args);
                    return connector == null
                            ? null
                            : (Function<Object, CompletionStage<Void>>)
                                    m -> ack(() -> connector.apply(m));
                }
            case "getNackWithMetadata":
                {
                    BiFunction<Throwable, Object, CompletionStage<Void>> connector =
                            (BiFunction<Throwable, Object, CompletionStage<Void>>)
                                    pass(method, args);
                    return connector == null
                            ? null
                            : (BiFunction<Throwable, Object, CompletionStage<Void>>)
                                    (t, m) -> nack(t, () -> connector.apply(t, m));
                }
            default:
                break;
        }
        if (method.isDefault()
                && (name.startsWith("with") || name.startsWith("add") || name.startsWith("then"))) {
            // Built by the interface from this message's payload, metadata, ack and nack.
            return InvocationHandler.invokeDefault(proxy, method, args);
        }
        return pass(method, args);
    }

    private Object pass(Method method, Object[] args) {
        try {
            return method.invoke(original, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
