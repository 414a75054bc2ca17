package io.idemkit.client;

import jakarta.ws.rs.client.ClientRequestContext;
import java.util.List;

/**
 * The operation a request belongs to (C14.8): the one captured on the thread that invoked the
 * request, when it was captured there, else the one open on the thread the filter runs on. A JAX-RS
 * {@code async()} or {@code rx()} invocation runs the filters on another thread than the one that
 * invoked it, so the operation travels with the request as a property set on the invoking thread.
 */
final class CapturedOperation {

    /** The request property that carries the levels captured on the invoking thread. */
    private static final String PROPERTY = "io.idemkit.client.operation";

    private CapturedOperation() {}

    /**
     * @return the levels open on this thread, to be set as the request property; {@code null} when
     *     none is open, so that nothing is captured
     */
    static Object capture() {
        List<OperationStack.Level> levels = OperationStack.all();
        return levels.isEmpty() ? null : new Levels(levels);
    }

    static String property() {
        return PROPERTY;
    }

    /**
     * @return the levels the request belongs to, outermost first; empty outside every operation
     */
    static List<OperationStack.Level> of(ClientRequestContext request) {
        return request.getProperty(PROPERTY) instanceof Levels captured
                ? captured.levels()
                : OperationStack.all();
    }

    /**
     * @return the frames of the levels the request belongs to, outermost first
     */
    static List<Frame> framesOf(ClientRequestContext request) {
        return of(request).stream().map(OperationStack.Level::frame).toList();
    }

    /** What was captured: a type of ours, so that no other property value is mistaken for it. */
    record Levels(List<OperationStack.Level> levels) {}
}
