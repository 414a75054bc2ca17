package io.idemkit.http;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import java.lang.System.Logger.Level;
import java.util.Set;

/**
 * Ends the claim of a request that ended without reaching the response filter (contract C6.7): a
 * resource that threw an exception no {@code ExceptionMapper} handles goes straight to the
 * container, and JAX-RS runs no response filter for it. The servlet request ends all the same, and
 * its end releases the claim at once instead of leaving it to the lease.
 *
 * <p>Installed by the servlet container itself, which finds this initializer through {@code
 * META-INF/services/jakarta.servlet.ServletContainerInitializer} in the library jar. It adds one
 * {@link ServletRequestListener}, whose cost on a request that idemkit did not claim is one
 * attribute lookup. The filter's exchange travels as a request property, which in a servlet
 * container is a servlet request attribute (JAX-RS {@code ContainerRequestContext#getProperty}). An
 * asynchronous request ends when its response is complete, so a suspended resource keeps its claim
 * until it resumes.
 *
 * <p>This replaced a request-scoped CDI bean with a {@code @PreDestroy}: the same moment, without
 * creating a bean on every protected request.
 */
public final class RequestEndRelease implements ServletContainerInitializer {

    private static final System.Logger LOG = System.getLogger(RequestEndRelease.class.getName());

    /** Whether a servlet container installed the listener in this class loader. */
    private static volatile boolean installed;

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addListener(new Listener());
        installed = true;
    }

    /**
     * @return whether a servlet container installed the listener, so that an unmapped exception
     *     releases its claim at once
     */
    static boolean installed() {
        return installed;
    }

    /** Releases the claim of a request that ends while its execution is still unended. */
    static void requestEnded(Object property) {
        if (!(property instanceof Exchange exchange) || exchange.execution() == null) {
            return;
        }
        exchange.stopKeepAlive();
        if (exchange.execution().releaseIfUnended()) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit released key {0}: the request ended before its response was stored"
                            + " (an exception no ExceptionMapper handles)",
                    exchange.execution().operation().effectiveKey());
        }
    }

    private static final class Listener implements ServletRequestListener {
        @Override
        public void requestDestroyed(ServletRequestEvent event) {
            ServletRequest request = event.getServletRequest();
            Object exchange = request.getAttribute(IdempotencyFilter.EXCHANGE);
            if (exchange == null) {
                return;
            }
            if (request.isAsyncStarted()) {
                // A suspended resource: the first dispatch is over, the request is not.
                request.getAsyncContext().addListener(new AsyncEnd(exchange));
                return;
            }
            requestEnded(exchange);
        }
    }

    /** The end of an asynchronous request, however it ends. */
    private record AsyncEnd(Object exchange) implements AsyncListener {
        @Override
        public void onComplete(AsyncEvent event) {
            requestEnded(exchange);
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            requestEnded(exchange);
        }

        @Override
        public void onError(AsyncEvent event) {
            requestEnded(exchange);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // A new asynchronous cycle of the same request: listeners are re-registered by it.
            event.getAsyncContext().addListener(this);
        }
    }
}
