package io.idemkit.http;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletRequest;
import java.lang.System.Logger.Level;

/**
 * Ends the claim of a request that ended without reaching the response filter (contract C6.7): a
 * resource that threw an exception no {@code ExceptionMapper} handles goes straight to the
 * container, and JAX-RS runs no response filter for it. The end of the request's CDI request
 * context, which CDI announces with the servlet request as payload, releases the claim at once
 * instead of leaving it to the lease. For a suspended resource that event comes at the end of the
 * first dispatch, so the release then waits for the end of the request's asynchronous cycle.
 *
 * <p>The filter's exchange travels as a request property, which in a servlet container is a servlet
 * request attribute (JAX-RS {@code ContainerRequestContext#getProperty}), so this costs a request
 * that idemkit did not claim one attribute lookup, and a claimed one no bean.
 *
 * <p>Not a bean: the extension adds a synthetic observer method of {@code @Destroyed(RequestScoped)
 * ServletRequest} that calls {@link #requestEnded}, only when the application can see the Servlet
 * API (on Open Liberty: the {@code servlet-6.0} feature, or one that includes it, such as {@code
 * webProfile} or {@code appSecurity}; {@code restfulWS} alone hides it). Otherwise {@link
 * UnendedExecutions}, a request-scoped bean per claimed request, does the same job at a higher
 * cost, and for synchronous requests only.
 */
public final class ServletRequestEnd {

    private static final System.Logger LOG = System.getLogger(ServletRequestEnd.class.getName());

    private ServletRequestEnd() {}

    /**
     * @param request the servlet request whose CDI request context just ended
     */
    public static void requestEnded(ServletRequest request) {
        Object exchange = request.getAttribute(IdempotencyFilter.EXCHANGE);
        if (exchange == null) {
            return;
        }
        if (request.isAsyncStarted()) {
            // A suspended resource: CDI ends the context of the first dispatch, the request goes
            // on, and ends when its asynchronous cycle does.
            try {
                request.getAsyncContext().addListener(new AsyncEnd(exchange));
            } catch (IllegalStateException e) {
                // A container that takes no listener this late: the lease is the fallback.
                LOG.log(
                        Level.DEBUG,
                        "idemkit cannot follow the end of an asynchronous request here; a claim"
                                + " it leaves unended waits for its lease");
            }
            return;
        }
        release(exchange);
    }

    /** The end of an asynchronous request, however it ends. */
    private record AsyncEnd(Object exchange) implements AsyncListener {
        @Override
        public void onComplete(AsyncEvent event) {
            release(exchange);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            release(exchange);
        }

        @Override
        public void onError(AsyncEvent event) {
            release(exchange);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // A new asynchronous cycle of the same request: listeners must register again.
            event.getAsyncContext().addListener(this);
        }
    }

    private static void release(Object property) {
        if (property instanceof Exchange exchange) {
            exchange.releaseIfUnended();
        }
    }
}
