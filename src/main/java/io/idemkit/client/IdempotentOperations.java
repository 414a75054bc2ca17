package io.idemkit.client;

import io.idemkit.IdempotencyKeyMissingException;
import jakarta.ws.rs.client.Invocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The programmatic form of {@link IdempotentOperation}, for code that is not a CDI bean (C14.1).
 * Every request that a client with {@link IdempotencyClientFeature} sends inside an operation, on
 * the same thread, gets a key derived from the operation's key (C14.2): two requests get two keys,
 * and the same request sent again in a later attempt gets the same key (C14.3). A request invoked
 * here and sent from another thread keeps the operation too: a Rest Client's {@code
 * CompletionStage} method by itself, a JAX-RS {@code async()} or {@code rx()} invocation through
 * {@link #capture} (C14.8).
 *
 * <pre>{@code
 * try (OperationScope op = IdempotentOperations.open()) {
 *     retry.executeSupplier(() -> op.attempt(() -> payments.charge(order)));   // your retry loop
 * }
 * String id = IdempotentOperations.call("order-42/charge", () -> payments.charge(order));
 * }</pre>
 *
 * <p>An operation opened inside another one joins it, unless it names a key of its own that differs
 * from the enclosing operation's (C14.1). Thread-safe: scopes are per thread.
 */
public final class IdempotentOperations {

    private IdempotentOperations() {}

    /**
     * Opens a scope that joins the current operation, or begins one with a key of 128 random bits.
     *
     * @return the scope; close it on this thread
     */
    public static OperationScope open() {
        Optional<OperationStack.Level> current = OperationStack.innermost();
        return enter(
                current.map(IdempotentOperations::joining)
                        .orElseGet(() -> fresh(Operation.random())));
    }

    /**
     * Opens a scope for the operation the application names, such as {@code "order-42/charge"}: its
     * requests get the same keys in every process that opens the same key, so a retry after a
     * restart is recognized too. Make the key name one operation, never two (C14.1). Inside an
     * operation with the same key, the scope joins it; inside another, it begins its own.
     *
     * @param operationKey the operation's key, not blank; it is never sent, only keys derived from
     *     it are
     * @return the scope; close it on this thread
     * @throws IdempotencyKeyMissingException when the key is {@code null} or blank
     */
    public static OperationScope open(String operationKey) {
        if (operationKey == null || operationKey.isBlank()) {
            throw new IdempotencyKeyMissingException(
                    "An operation key must not be null or blank: name the operation, such as"
                            + " order-42/charge");
        }
        Optional<OperationStack.Level> current = OperationStack.innermost();
        if (current.isPresent() && current.get().frame().operation().isChosen(operationKey)) {
            return enter(joining(current.get()));
        }
        return enter(fresh(Operation.chosen(operationKey)));
    }

    /**
     * Runs {@code body} as one attempt of an operation ({@link #open()}).
     *
     * @return what the body returned
     * @throws X what it threw, unchanged
     */
    public static <T, X extends Exception> T call(OperationCall<T, X> body) throws X {
        Objects.requireNonNull(body, "body");
        try (OperationScope scope = open()) {
            return scope.attempt(body);
        }
    }

    /**
     * Runs {@code body} as one attempt of the operation the application names ({@link
     * #open(String)}).
     *
     * @return what the body returned
     * @throws X what it threw, unchanged
     */
    public static <T, X extends Exception> T call(String operationKey, OperationCall<T, X> body)
            throws X {
        Objects.requireNonNull(body, "body");
        try (OperationScope scope = open(operationKey)) {
            return scope.attempt(body);
        }
    }

    /** Runs {@code body} as one attempt of an operation ({@link #open()}). */
    public static void run(Runnable body) {
        Objects.requireNonNull(body, "body");
        call(
                () -> {
                    body.run();
                    return null;
                });
    }

    /** Runs {@code body} as one attempt of the operation the application names. */
    public static void run(String operationKey, Runnable body) {
        Objects.requireNonNull(body, "body");
        call(
                operationKey,
                () -> {
                    body.run();
                    return null;
                });
    }

    /**
     * Makes a request part of the operation open on this thread, wherever it is sent from (C14.8).
     * A JAX-RS {@code async()} or {@code rx()} invocation runs the client's filters on another
     * thread, outside the operation; captured, it gets its key from the operation as a request sent
     * on this thread would:
     *
     * <pre>{@code
     * IdempotentOperations.capture(target.request()).async().post(Entity.json(order));
     * }</pre>
     *
     * <p>Outside every operation the builder is returned unchanged. A MicroProfile Rest Client
     * method returning a {@code CompletionStage} needs no capture: the library's Rest Client
     * listener does it.
     *
     * @param request the request being built, on the thread that has the operation open
     * @return {@code request}, carrying the operation as a request property
     */
    public static Invocation.Builder capture(Invocation.Builder request) {
        Objects.requireNonNull(request, "request");
        Object levels = CapturedOperation.capture();
        return levels == null ? request : request.property(CapturedOperation.property(), levels);
    }

    /**
     * @return whether an operation is open on this thread
     */
    public static boolean active() {
        return OperationStack.current().isPresent();
    }

    /**
     * Opens a named step of the operation open on this thread (C14.2): its requests get keys
     * derived from the operation's key and the step's name, numbered among the step's own requests
     * only. So a step's keys do not depend on what ran before it in the operation: a run resumed
     * after a crash, which skips the items it finished, gives each item the key it had, where keys
     * numbered by position would give the second item the first one's. The step's requests do not
     * advance the operation's count either. Outside every operation, the step begins one with a
     * random key; a step inside a step adds its name to the enclosing one's.
     *
     * <p>Name one step of an operation once: two steps of the same name that send the same method
     * to the same path share keys, and the server answers the second with the first's result.
     *
     * @param stepName the step's name within the operation, not blank, such as an item's id; it is
     *     never sent, only keys derived from it are
     * @return the scope; close it on this thread
     * @throws IdempotencyKeyMissingException when the name is {@code null} or blank
     */
    public static OperationScope openStep(String stepName) {
        if (stepName == null || stepName.isBlank()) {
            throw new IdempotencyKeyMissingException(
                    "A step name must not be null or blank: name the step, such as the id of the"
                            + " item it handles");
        }
        Optional<OperationStack.Level> current = OperationStack.innermost();
        Operation operation = current.map(l -> l.frame().operation()).orElseGet(Operation::random);
        List<String> steps = new ArrayList<>();
        current.ifPresent(l -> steps.addAll(l.frame().steps()));
        steps.add(stepName);
        return enter(new Frame(operation, current.isPresent(), new Occurrences(), steps));
    }

    /**
     * Runs {@code body} as one attempt of a named step of the operation open on this thread ({@link
     * #openStep}):
     *
     * <pre>{@code
     * IdempotentOperations.run("batch-7", () -> {
     *     for (Item item : unfinished(items)) {                 // a resumed run skips some
     *         IdempotentOperations.step(item.id(), () -> retry.call(() -> payments.charge(item)));
     *     }
     * });
     * }</pre>
     *
     * @return what the body returned
     * @throws X what it threw, unchanged
     */
    public static <T, X extends Exception> T step(String stepName, OperationCall<T, X> body)
            throws X {
        Objects.requireNonNull(body, "body");
        try (OperationScope scope = openStep(stepName)) {
            return scope.attempt(body);
        }
    }

    /** A level that joins the operation of {@code current}, numbering on from its count. */
    private static Frame joining(OperationStack.Level current) {
        return new Frame(
                current.frame().operation(), true, current.occurrences(), current.frame().steps());
    }

    private static Frame fresh(Operation operation) {
        return new Frame(operation, false, operation.occurrences());
    }

    private static OperationScope enter(Frame frame) {
        return new OperationScope(frame, OperationStack.push(frame, frame.enclosing()));
    }
}
