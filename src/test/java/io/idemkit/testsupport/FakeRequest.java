package io.idemkit.testsupport;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One request as a JAX-RS request filter sees it: method, URI below the application's base,
 * headers, body, security context and request properties. Records the response a filter aborts
 * with. Not thread-safe: one request, one thread at a time, as in a runtime.
 */
public final class FakeRequest implements ContainerRequestContext {

    /** The base URI of the fake application: {@code http://localhost/shop/api/}. */
    public static final URI BASE = URI.create("http://localhost/shop/api/");

    private final Map<String, Object> properties = new HashMap<>();
    private final MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
    private String method;
    private URI uri;
    private InputStream entity = InputStream.nullInputStream();
    private int length = -1;
    private SecurityContext security = FakeSecurityContext.anonymous();
    private Response aborted;
    private boolean unparsableUri;

    private FakeRequest(String method, String pathAndQuery) {
        this.method = method;
        this.uri = BASE.resolve(pathAndQuery);
    }

    /**
     * @param method the HTTP method
     * @param pathAndQuery the path below {@link #BASE}, with its query if any
     * @return a request without headers nor body, from an anonymous caller
     */
    public static FakeRequest of(String method, String pathAndQuery) {
        return new FakeRequest(method, pathAndQuery);
    }

    /** Adds a header value (a second call with the same name adds a second value). */
    public FakeRequest header(String name, String value) {
        headers.add(name, value);
        return this;
    }

    /** Sets a JSON body, with its Content-Type and Content-Length. */
    public FakeRequest json(String body) {
        return body(body.getBytes(StandardCharsets.UTF_8), MediaType.APPLICATION_JSON);
    }

    /** Sets the body, with its Content-Type and Content-Length. */
    public FakeRequest body(byte[] body, String contentType) {
        headers.putSingle(HttpHeaders.CONTENT_TYPE, contentType);
        headers.putSingle(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length));
        this.entity = new ByteArrayInputStream(body);
        this.length = body.length;
        return this;
    }

    /**
     * Sets a body stream that may end early or fail, under a declared {@code Content-Length} and a
     * JSON {@code Content-Type}: a client that sends fewer bytes than it declared.
     */
    public FakeRequest entity(InputStream body, int declaredLength) {
        headers.putSingle(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON);
        headers.putSingle(HttpHeaders.CONTENT_LENGTH, Integer.toString(declaredLength));
        this.entity = body;
        this.length = declaredLength;
        return this;
    }

    /**
     * Makes {@code getUriInfo().getRequestUri()} throw, as Open Liberty's does for a query that
     * {@code java.net.URI} refuses ({@code ?f=%zz}); its message quotes the URI, as Liberty's does.
     */
    public FakeRequest unparsableRequestUri() {
        this.unparsableUri = true;
        return this;
    }

    /** Sets who the caller is. */
    public FakeRequest caller(SecurityContext caller) {
        this.security = caller;
        return this;
    }

    /**
     * @return the response a filter aborted the request with, if any
     */
    public Optional<Response> aborted() {
        return Optional.ofNullable(aborted);
    }

    /**
     * @return the body as the resource would read it now, after the filters
     */
    public byte[] readEntity() {
        try {
            return entity.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Object getProperty(String name) {
        return properties.get(name);
    }

    @Override
    public Collection<String> getPropertyNames() {
        return List.copyOf(properties.keySet());
    }

    @Override
    public void setProperty(String name, Object object) {
        if (object == null) {
            properties.remove(name);
        } else {
            properties.put(name, object);
        }
    }

    @Override
    public void removeProperty(String name) {
        properties.remove(name);
    }

    /**
     * @return the request properties, shared with the writer interceptor context of the response
     */
    public Map<String, Object> properties() {
        return properties;
    }

    @Override
    public UriInfo getUriInfo() {
        return new FakeUriInfo(BASE, uri, unparsableUri);
    }

    @Override
    public void setRequestUri(URI requestUri) {
        this.uri = requestUri;
    }

    @Override
    public void setRequestUri(URI baseUri, URI requestUri) {
        this.uri = baseUri.resolve(requestUri);
    }

    @Override
    public Request getRequest() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getMethod() {
        return method;
    }

    @Override
    public void setMethod(String method) {
        this.method = method;
    }

    @Override
    public MultivaluedMap<String, String> getHeaders() {
        return headers;
    }

    @Override
    public String getHeaderString(String name) {
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return String.join(",", header.getValue());
            }
        }
        return null;
    }

    @Override
    public Date getDate() {
        return null;
    }

    @Override
    public Locale getLanguage() {
        return null;
    }

    @Override
    public int getLength() {
        return length;
    }

    @Override
    public MediaType getMediaType() {
        String type = getHeaderString(HttpHeaders.CONTENT_TYPE);
        return type == null ? null : MediaType.valueOf(type);
    }

    @Override
    public List<MediaType> getAcceptableMediaTypes() {
        return List.of(MediaType.WILDCARD_TYPE);
    }

    @Override
    public List<Locale> getAcceptableLanguages() {
        return new ArrayList<>();
    }

    @Override
    public Map<String, Cookie> getCookies() {
        return Map.of();
    }

    @Override
    public boolean hasEntity() {
        return length != 0;
    }

    @Override
    public InputStream getEntityStream() {
        return entity;
    }

    @Override
    public void setEntityStream(InputStream input) {
        this.entity = input;
    }

    @Override
    public SecurityContext getSecurityContext() {
        return security;
    }

    @Override
    public void setSecurityContext(SecurityContext context) {
        this.security = context;
    }

    @Override
    public void abortWith(Response response) {
        if (aborted != null) {
            throw new IllegalStateException("the request was already aborted");
        }
        this.aborted = response;
    }
}
