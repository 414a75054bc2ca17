package io.idemkit.it.http.filterorder;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * Authenticates by an API key, as applications often do, without {@code @Priority}: it runs at
 * {@code Priorities.USER} (5000), before idemkit's request filter by default (last), after it when
 * {@code idemkit.http.request-filter-priority} places idemkit's lower (2100).
 */
@Provider
public class ApiKeyFilter implements ContainerRequestFilter {

    /** The header that carries the key. */
    public static final String HEADER = "X-Api-Key";

    /** The one key this application accepts. */
    public static final String KEY = "k-42";

    @Override
    public void filter(ContainerRequestContext request) {
        if (!KEY.equals(request.getHeaderString(HEADER))) {
            request.abortWith(Response.status(Response.Status.UNAUTHORIZED).build());
        }
    }
}
