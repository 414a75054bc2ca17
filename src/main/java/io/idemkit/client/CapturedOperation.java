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

    /**
     * For a request sent under levels carried to this thread for one invocation (C14.8): moves them
     * onto the request, where its response is recorded, and closes them on the thread, where
     * nothing else may read them. One invocation sends one request.
     *
     * @param levels the levels the request was found to belong to
     */
    static void holdCarried(ClientRequestContext request, List<OperationStack.Level> levels) {
        if (levels.isEmpty()
                || levels.get(levels.size() - 1).carry() == null
                || request.getProperty(PROPERTY) instanceof Levels) {
            return;
        }
        request.setProperty(PROPERTY, new Levels(levels));
        levels.get(levels.size() - 1).carry().close();
    }

    /** What was captured: a type of ours, so that no other property value is mistaken for it. */
    record Levels(List<OperationStack.Level> levels) {}
}
