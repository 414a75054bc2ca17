package io.idemkit.http;

import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The path and the query of a request as they arrived, not decoded: what the effective key and the
 * fingerprint take (C1, C6.9).
 *
 * @param rawPath the path, context root included, never null
 * @param rawQuery the text after {@code ?}, or null when there is none
 */
record RequestTarget(String rawPath, String rawQuery) {

    /**
     * Reads the target from JAX-RS, or from {@code fallback} when the runtime cannot parse it.
     *
     * @param uri the request's URI information
     * @param fallback the target as the Servlet API holds it, where the application can see it
     * @return the target, or empty when neither can read it
     */
    static Optional<RequestTarget> of(UriInfo uri, Supplier<Optional<RequestTarget>> fallback) {
        URI request;
        try {
            request = uri.getRequestUri();
        } catch (IllegalArgumentException e) {
            // A runtime that builds the request URI with URI.create (Open Liberty's) throws on a
            // query java.net.URI refuses, such as a malformed escape (?f=%zz), which the reference
            // fingerprints as sent (C6.9). The Servlet API still holds it as sent.
            return fallback.get();
        }
        String path = request.getRawPath();
        return Optional.of(new RequestTarget(path == null ? "/" : path, request.getRawQuery()));
    }
}
