package io.idemkit.client;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One level of operation scope: an {@link OperationScope}, an {@code IdempotentOperation} method
 * call, or a retry executor's call. Nested levels share their operation; each level repeats its own
 * body as attempts (C14.3). Thread-safe: attempts may run on several threads, and overlap.
 */
final class Frame {

    private final Operation operation;
    private final boolean joined;
    private final Occurrences enclosing;
    private final List<String> steps;
    private final AttemptLog log = new AttemptLog();
    private final Map<String, String> callersKeys = new HashMap<>();
    private final Set<Object> streamsSent = Collections.newSetFromMap(new IdentityHashMap<>());
    private Map<String, Integer> atFirstAttempt;
    private int attempts;

    /**
     * @param operation the operation this level belongs to
     * @param joined whether an enclosing level began it
     * @param enclosing the count this level's requests are numbered in outside its attempts: the
     *     operation's own, or the enclosing level's on the thread that opened this one
     */
    Frame(Operation operation, boolean joined, Occurrences enclosing) {
        this(operation, joined, enclosing, List.of());
    }

    /**
     * @param steps the names of the steps this level is in, outermost first (C14.2): its requests'
     *     keys are derived from them and numbered in the innermost step's own count; empty outside
     *     every step
     */
    Frame(Operation operation, boolean joined, Occurrences enclosing, List<String> steps) {
        this.operation = operation;
        this.joined = joined;
        this.enclosing = enclosing;
        this.steps = List.copyOf(steps);
    }

    /**
     * @return the names of the steps this level is in, outermost first; empty outside every step
     */
    List<String> steps() {
        return steps;
    }

    Operation operation() {
        return operation;
    }

    /**
     * @return whether this level joined an operation that an enclosing level began
     */
    boolean joined() {
        return joined;
    }

    /**
     * @return the count this level's requests take their numbers from outside its attempts
     */
    Occurrences enclosing() {
        return enclosing;
    }

    AttemptLog log() {
        return log;
    }

    /**
     * Notes the key the caller set on the request at {@code position} of an attempt of this level.
     *
     * @param position the request's method, path and number among the caller-keyed ones of its
     *     attempt
     * @param key the key it carries
     * @return whether an earlier attempt sent the request at that position with another key
     */
    synchronized boolean callersKeyChanged(String position, String key) {
        String first = callersKeys.putIfAbsent(position, key);
        return first != null && !first.equals(key);
    }

    /**
     * Notes a request body that can be read once (a stream, a reader) as sent at this level.
     *
     * @return whether an earlier request of this level sent the same one: it was spent there, and
     *     would go out empty or cut
     */
    synchronized boolean streamSpent(Object body) {
        return !streamsSent.add(body);
    }

    /**
     * @return how many attempts of this level's body began
     */
    synchronized int attempts() {
        return attempts;
    }

    /**
     * Runs one attempt of this level's body, on the calling thread (which is the attempt's own
     * under Fault Tolerance's {@code @Asynchronous}). Every attempt numbers its requests in a count
     * of its own that starts where the first attempt began, so that a repeated request gets the key
     * it had, also when attempts overlap: an attempt a timeout gave up on may still send its
     * request after the next one began, and both carry one key (C14.3). When the latest attempt
     * ends, the level's enclosing count goes on from where it ended.
     */
    <T, X extends Exception> T attempt(OperationCall<T, X> body) throws X {
        Occurrences own;
        int number;
        synchronized (this) {
            number = ++attempts;
            if (number == 1) {
                atFirstAttempt = enclosing.snapshot();
            }
            own = new Occurrences(atFirstAttempt);
        }
        log.clear();
        OperationStack.Level level = OperationStack.push(this, own);
        try {
            return body.call();
        } finally {
            OperationStack.remove(level);
            synchronized (this) {
                if (number == attempts) {
                    enclosing.continueFrom(own.snapshot());
                }
            }
        }
    }
}
