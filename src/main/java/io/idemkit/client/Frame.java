package io.idemkit.client;

import java.util.Map;

/**
 * One level of operation scope on a thread: an {@link OperationScope}, an {@code
 * IdempotentOperation} method call, or a retry executor's call. Nested levels share their
 * operation; each level repeats its own body as attempts (C14.3). Thread-safe.
 */
final class Frame {

    private final Operation operation;
    private final boolean joined;
    private final AttemptLog log = new AttemptLog();
    private Map<String, Integer> occurrencesAtFirstAttempt;
    private int attempts;

    Frame(Operation operation, boolean joined) {
        this.operation = operation;
        this.joined = joined;
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

    AttemptLog log() {
        return log;
    }

    /**
     * @return how many attempts of this level's body began
     */
    synchronized int attempts() {
        return attempts;
    }

    /**
     * Runs one attempt of this level's body: the first attempt notes how far the operation's
     * requests were numbered; every later one numbers them again from there, so that a repeated
     * request gets the key it had (C14.3). Where the attempt runs on a thread of its own (Fault
     * Tolerance's {@code @Asynchronous}), this level is put on that thread for the attempt.
     */
    <T, X extends Exception> T attempt(OperationCall<T, X> body) throws X {
        beginAttempt();
        boolean hopped = OperationStack.current().orElse(null) != this;
        if (hopped) {
            OperationStack.push(this);
        }
        try {
            return body.call();
        } finally {
            if (hopped) {
                OperationStack.remove(this);
            }
        }
    }

    private synchronized void beginAttempt() {
        if (attempts++ == 0) {
            occurrencesAtFirstAttempt = operation.occurrences();
        } else {
            operation.restore(occurrencesAtFirstAttempt);
        }
        log.clear();
    }
}
