package io.idemkit.reactive;

import jakarta.interceptor.InvocationContext;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * One call of an {@code @Incoming} method with a {@link GuardedMessage}, and how it failed during
 * the call, if it did: it threw, it nacked (the nack held by the guard), or it returned a stage
 * that had failed already (C17.4). What comes of it is the delivery's to decide: the failure passed
 * on to the connector as it came, a nack, or dropped for another attempt.
 */
final class Attempt {

    private enum Failed {
        NOT,
        THREW,
        NACKED,
        FAILED_STAGE
    }

    private final GuardedMessage guard;
    private final Object returned;
    private final Throwable failure;
    private final Failed how;

    private Attempt(GuardedMessage guard, Object returned, Throwable failure, Failed how) {
        this.guard = guard;
        this.returned = returned;
        this.failure = failure;
        this.how = how;
    }

    /** Calls the method once, with the guard's message as its parameter. */
    static Attempt of(InvocationContext invocation, GuardedMessage guard) {
        Object returned;
        try {
            returned = invocation.proceed();
        } catch (Throwable t) {
            guard.endCall();
            guard.abandon();
            return new Attempt(guard, null, t, Failed.THREW);
        }
        Throwable nack = guard.endCall();
        if (nack != null) {
            return new Attempt(guard, returned, nack, Failed.NACKED);
        }
        Throwable failedStage = failedAlready(returned);
        if (failedStage != null) {
            guard.abandon();
            return new Attempt(guard, returned, failedStage, Failed.FAILED_STAGE);
        }
        return new Attempt(guard, returned, null, Failed.NOT);
    }

    /**
     * @return how the call failed, or {@code null} when it did not (yet)
     */
    Throwable failure() {
        return failure;
    }

    /**
     * @return what the method returned
     */
    Object returned() {
        return returned;
    }

    /**
     * @return what the method returned; a stage that fails later ends the run as failed
     */
    Object followedBy() {
        if (returned instanceof CompletionStage<?> stage) {
            return stage.whenComplete(
                    (ignored, later) -> {
                        if (later != null) {
                            guard.fail(cause(later));
                        }
                    });
        }
        return returned;
    }

    /**
     * @return the failure as it would have reached the connector without the library: thrown again,
     *     the held nack passed on, or the failed stage
     */
    Object passedOn(MethodForm form) throws Exception {
        return switch (how) {
            case THREW -> {
                if (failure instanceof Error error) {
                    throw error;
                }
                throw (Exception) failure;
            }
            case NACKED -> form.nothing(guard.passHeldNack());
            default -> returned;
        };
    }

    /**
     * @return the record nacked: the method's own nack passed on, or a nack with its failure
     */
    CompletionStage<Void> nacked(Message<?> message) {
        return how == Failed.NACKED ? guard.passHeldNack() : message.nack(failure);
    }

    /** The failure does not reach the connector: another attempt runs, or the record is acked. */
    void dropped() {
        if (how == Failed.NACKED) {
            guard.dropHeldNack();
        }
    }

    /** A stage that has failed already, as {@code failedFuture} returns: its failure. */
    private static Throwable failedAlready(Object returned) {
        if (!(returned instanceof CompletionStage<?> stage)) {
            return null;
        }
        CompletableFuture<?> future;
        try {
            future = stage.toCompletableFuture();
        } catch (UnsupportedOperationException e) {
            return null; // a stage of its own kind: followed, not inspected
        }
        if (!future.isCompletedExceptionally()) {
            return null;
        }
        try {
            future.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return cause(e);
        }
    }

    private static Throwable cause(Throwable t) {
        return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
}
