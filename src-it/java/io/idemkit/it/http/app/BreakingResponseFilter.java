package io.idemkit.it.http.app;

import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Throws from a response filter that runs before idemkit's, when the request asks for it: the one
 * way to end a request in RESTEasy without idemkit's response filter ever running (its default
 * exception mapper turns even an {@code Error} from a resource into a response that filters see).
 */
@Provider
@Priority(5000)
public class BreakingResponseFilter implements ContainerResponseFilter {

    static final String BREAK = "X-Test-Break-Response";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getHeaderString(BREAK) != null) {
            throw new IllegalStateException("a response filter that breaks");
        }
    }
}
