package io.idemkit.reactive;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The message an {@code @Idempotent} method receives in place of the connector's (C17.2): the same
 * payload, metadata and {@code unwrap}, but its first {@code ack} stores the completion before the
 * connector's acknowledgement runs. A {@code nack} while the method is being called is held for the
 * delivery to decide on (a retry, or the give-up, C17.4); one after the call returned releases the
 * claim before the connector's failure strategy runs. A message built from it ({@code withPayload},
 * {@code withMetadata}: the interface's own default methods) acknowledges through it too.
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

        /** The method nacked the record, or its stage failed, after the call returned. */
        void failed(Throwable failure);
    }

    private final Message<?> original;
    private final Outcome outcome;
    private final AtomicBoolean decided = new AtomicBoolean();
    private final CompletableFuture<Void> heldNack = new CompletableFuture<>();
    private boolean inCall = true; // guarded by this
    private Throwable nackedInCall; // guarded by this
    private Supplier<CompletionStage<Void>> connectorNack; // guarded by this

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
     * The call returned or threw: a nack from now on reaches the connector at once.
     *
     * @return the reason of the nack the method gave during the call, held; {@code null} without
     *     one
     */
    synchronized Throwable endCall() {
        inCall = false;
        return nackedInCall;
    }

    /** Marks the run decided without an outcome: the method threw, and the delivery decides. */
    void abandon() {
        decided.set(true);
    }

    /**
     * Passes the nack held during the call on to the connector.
     *
     * @return what the connector's nack returned, which the stage the method returned follows too
     */
    CompletionStage<Void> passHeldNack() {
        Supplier<CompletionStage<Void>> connector;
        synchronized (this) {
            connector = connectorNack;
        }
        CompletionStage<Void> passed = connector.get();
        passed.whenComplete(
                (done, failure) -> {
                    if (failure != null) {
                        heldNack.completeExceptionally(failure);
                    } else {
                        heldNack.complete(done);
                    }
                });
        return passed;
    }

    /** Drops the nack held during the call: the delivery runs the method again, or gives up. */
    void dropHeldNack() {
        heldNack.complete(null);
    }

    /**
     * Ends the run as failed unless the method acknowledged or nacked it already: its stage failed
     * after the call returned.
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
        synchronized (this) {
            if (inCall && decided.compareAndSet(false, true)) {
                nackedInCall =
                        reason != null ? reason : new IllegalStateException("nacked, no reason");
                connectorNack = connector;
                return heldNack;
            }
        }
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
                // SmallRye's: through the connector's own ack(Metadata), which every message has,
                // whether or not it hands out a function of its own.
                return (Function<Object, CompletionStage<Void>>)
                        m -> ack(() -> (CompletionStage<Void>) pass(withMetadata("ack"), m));
            case "getNackWithMetadata":
                return (BiFunction<Throwable, Object, CompletionStage<Void>>)
                        (t, m) ->
                                nack(
                                        t,
                                        () ->
                                                (CompletionStage<Void>)
                                                        pass(withMetadata("nack"), t, m));
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

    /** SmallRye's {@code ack(Metadata)} or {@code nack(Throwable, Metadata)}. */
    private static Method withMetadata(String name) {
        int parameters = name.equals("ack") ? 1 : 2;
        for (Method method : Message.class.getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == parameters) {
                return method;
            }
        }
        throw new IllegalStateException("Message has no " + name + " with metadata");
    }

    private Object pass(Method method, Object... args) {
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
