package io.idemkit.testsupport;

import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The URI information of one request: the application's base URI and the request URI below it.
 * Answers what the filters ask (the request URI, the path relative to the base, the query
 * parameters); the matching-related parts, which only a real runtime knows, throw.
 */
public final class FakeUriInfo implements UriInfo {

    private final URI base;
    private final URI request;
    private final boolean unparsable;

    /**
     * @param base the application's base URI, ending with {@code /}
     * @param request the request URI, below {@code base}
     */
    public FakeUriInfo(URI base, URI request) {
        this(base, request, false);
    }

    /**
     * @param base the application's base URI, ending with {@code /}
     * @param request the request URI, below {@code base}
     * @param unparsable whether {@link #getRequestUri} throws, as a runtime's does for a query that
     *     {@code java.net.URI} refuses
     */
    public FakeUriInfo(URI base, URI request, boolean unparsable) {
        this.base = base;
        this.request = request;
        this.unparsable = unparsable;
    }

    @Override
    public String getPath() {
        return getPath(true);
    }

    @Override
    public String getPath(boolean decode) {
        String raw = base.relativize(request).getRawPath();
        return decode ? URLDecoder.decode(raw, StandardCharsets.UTF_8) : raw;
    }

    @Override
    public List<PathSegment> getPathSegments() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<PathSegment> getPathSegments(boolean decode) {
        throw new UnsupportedOperationException();
    }

    @Override
    public URI getRequestUri() {
        if (unparsable) {
            throw new IllegalArgumentException("Malformed escape pair at index 37: " + request);
        }
        return request;
    }

    @Override
    public UriBuilder getRequestUriBuilder() {
        throw new UnsupportedOperationException();
    }

    @Override
    public URI getAbsolutePath() {
        return URI.create(request.getScheme() + "://" + request.getRawAuthority())
                .resolve(request.getRawPath());
    }

    @Override
    public UriBuilder getAbsolutePathBuilder() {
        throw new UnsupportedOperationException();
    }

    @Override
    public URI getBaseUri() {
        return base;
    }

    @Override
    public UriBuilder getBaseUriBuilder() {
        throw new UnsupportedOperationException();
    }

    @Override
    public MultivaluedMap<String, String> getPathParameters() {
        throw new UnsupportedOperationException();
    }

    @Override
    public MultivaluedMap<String, String> getPathParameters(boolean decode) {
        throw new UnsupportedOperationException();
    }

    @Override
    public MultivaluedMap<String, String> getQueryParameters() {
        return getQueryParameters(true);
    }

    @Override
    public MultivaluedMap<String, String> getQueryParameters(boolean decode) {
        MultivaluedMap<String, String> parameters = new MultivaluedHashMap<>();
        String query = request.getRawQuery();
        if (query == null || query.isEmpty()) {
            return parameters;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            parameters.add(
                    decode ? URLDecoder.decode(name, StandardCharsets.UTF_8) : name,
                    decode ? URLDecoder.decode(value, StandardCharsets.UTF_8) : value);
        }
        return parameters;
    }

    @Override
    public List<String> getMatchedURIs() {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<String> getMatchedURIs(boolean decode) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<Object> getMatchedResources() {
        throw new UnsupportedOperationException();
    }

    @Override
    public URI resolve(URI uri) {
        return base.resolve(uri);
    }

    @Override
    public URI relativize(URI uri) {
        return request.relativize(uri);
    }
}
