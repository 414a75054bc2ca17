package io.idemkit.client;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open operation scope on the current thread (C14.1): every request that a client with {@link
 * IdempotencyClientFeature} sends inside it, on this thread, gets a key derived from the
 * operation's key (C14.2). Opened by {@link IdempotentOperations#open()}; close it on the thread
 * that opened it, in a try-with-resources statement, innermost first.
 *
 * <p>Not thread-safe: one thread opens it, runs its attempts and closes it.
 */
public final class OperationScope implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(OperationScope.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final Frame frame;
    private final OperationStack.Level level;
    private boolean closed;

    OperationScope(Frame frame, OperationStack.Level level) {
        this.frame = frame;
        this.level = level;
    }

    /**
     * @return whether this scope joined an operation an enclosing scope began, so that its requests
     *     are numbered in that operation (C14.1)
     */
    public boolean joined() {
        return frame.joined();
    }

    /**
     * Runs one attempt of this scope's body. Call it once per attempt from a retry loop of your own
     * (resilience4j, Failsafe, a loop): the first attempt numbers its requests as usual; every
     * later attempt numbers them again from where the first began, so that a request sent again
     * gets the key it had the first time (C14.3), also while an earlier attempt still runs. Without
     * it, every request of a repeated body counts as a new one and gets a new key.
     *
     * @param body one attempt
     * @return what the attempt returned
     * @throws X what the attempt threw, unchanged
     */
    public <T, X extends Exception> T attempt(OperationCall<T, X> body) throws X {
        Objects.requireNonNull(body, "body");
        return frame.attempt(body);
    }

    Frame frame() {
        return frame;
    }

    /**
     * Ends the scope on this thread. A scope closed while a scope opened inside it is still open
     * ends that one too; so does a scope closed on another thread than its own, where it ends
     * nothing. Either is a mistake in the code that opened them, logged as a WARNING, never thrown:
     * the body has run, and its result or its own exception reaches the caller (C14.1).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!OperationStack.remove(level)) {
            LOG.log(
                    WARNED.compareAndSet(false, true)
                            ? System.Logger.Level.WARNING
                            : System.Logger.Level.DEBUG,
                    "idemkit: an operation scope was closed out of order (while a scope opened"
                            + " inside it was still open), or on another thread than the one"
                            + " that opened it; the scopes inside it were ended with it. Close"
                            + " scopes innermost first, with try-with-resources.");
        }
    }
}
