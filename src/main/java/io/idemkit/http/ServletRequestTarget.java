package io.idemkit.http;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * The target of the current request as the Servlet API holds it: {@code getRequestURI()} and {@code
 * getQueryString()}, neither decoded. Read through the {@code HttpServletRequest} bean that CDI
 * provides in a servlet container, only for a request whose target the JAX-RS runtime could not
 * parse ({@link RequestTarget}). Loaded only where the application can see the Servlet API ({@link
 * ServletApi}).
 */
final class ServletRequestTarget {

    private static final System.Logger LOG = System.getLogger(ServletRequestTarget.class.getName());

    private ServletRequestTarget() {}

    /**
     * @return the current request's target, or empty when there is no servlet request to ask
     */
    static Optional<RequestTarget> current() {
        try {
            HttpServletRequest request = CDI.current().select(HttpServletRequest.class).get();
            return Optional.of(
                    new RequestTarget(request.getRequestURI(), request.getQueryString()));
        } catch (RuntimeException e) {
            // No CDI container, no request context, or no servlet request behind this one.
            LOG.log(
                    Level.DEBUG,
                    "idemkit found no servlet request to read the request target from");
            return Optional.empty();
        }
    }
}
