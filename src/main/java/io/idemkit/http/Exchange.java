package io.idemkit.http;

import io.idemkit.core.Execution;
import java.lang.System.Logger.Level;

/**
 * What the request filter leaves for the response side of one request: the claim it won, or why the
 * request bypassed idemkit. Carried as a request property; touched by one thread at a time (the
 * request's, then the one that writes its response).
 */
final class Exchange {

    private static final System.Logger LOG = System.getLogger(Exchange.class.getName());

    private final Execution execution;
    private final String bypass;
    private int status;
    private boolean awaitingBody;

    private Exchange(Execution execution, String bypass) {
        this.execution = execution;
        this.bypass = bypass;
    }

    static Exchange claimed(Execution execution) {
        return new Exchange(execution, null);
    }

    static Exchange bypassed(String reason) {
        return new Exchange(null, reason);
    }

    /**
     * @return the claim, or {@code null} for a bypassed request
     */
    Execution execution() {
        return execution;
    }

    /**
     * @return the {@code Idempotency-Replay-Unavailable} reason of a bypassed request, or {@code
     *     null}
     */
    String bypass() {
        return bypass;
    }

    /**
     * Releases the claim if nothing ended it: the request is over (C6.7). Safe to call more than
     * once, and for a bypassed request.
     */
    void releaseIfUnended() {
        if (execution == null) {
            return;
        }
        if (execution.releaseIfUnended()) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit released key {0}: the request ended before its response was stored"
                            + " (an exception no ExceptionMapper handles)",
                    execution.operation().effectiveKey());
        }
    }

    /** The response filter found a cacheable status with an entity still to be written. */
    void awaitBody(int status) {
        this.status = status;
        this.awaitingBody = true;
    }

    boolean awaitingBody() {
        return awaitingBody;
    }

    int status() {
        return status;
    }
}
