package io.idemkit.it.http.filterorder;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An access log without {@code @Priority}, as applications write one: it must see every request,
 * duplicates included, and checks nobody.
 */
@Provider
public class AccessLogFilter implements ContainerRequestFilter {

    static final AtomicInteger POSTS = new AtomicInteger();

    @Override
    public void filter(ContainerRequestContext request) {
        if ("POST".equals(request.getMethod())) {
            POSTS.incrementAndGet();
        }
    }
}
