package io.idemkit.http;

import io.idemkit.core.Execution;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.RequestScoped;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Ends the claims of a request that ended without reaching the response filter (contract C6.7): a
 * resource that threw an exception no {@code ExceptionMapper} handles goes straight to the
 * container, and JAX-RS runs no response filter for it. The request context ends all the same, and
 * its end releases the claim at once instead of leaving it to the lease.
 *
 * <p>Request-scoped: one per HTTP request, also for an asynchronous one, whose request context ends
 * when the response is complete.
 */
@RequestScoped
public class UnendedExecutions {

    private static final System.Logger LOG = System.getLogger(UnendedExecutions.class.getName());

    private final List<Execution> executions = new CopyOnWriteArrayList<>();

    void track(Execution execution) {
        executions.add(execution);
    }

    @PreDestroy
    void releaseUnended() {
        for (Execution execution : executions) {
            if (execution.releaseIfUnended()) {
                LOG.log(
                        Level.DEBUG,
                        "idemkit released key {0}: the request ended before its response was"
                                + " stored (an exception no ExceptionMapper handles)",
                        execution.operation().effectiveKey());
            }
        }
        executions.clear();
    }
}
