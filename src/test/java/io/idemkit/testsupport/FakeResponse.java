package io.idemkit.testsupport;

import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Link;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.net.URI;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A response as a JAX-RS response filter sees it: status, headers and the entity the resource
 * returned, not yet written. The headers map is the one the writer interceptor context shares.
 */
public final class FakeResponse implements ContainerResponseContext {

    private final MultivaluedMap<String, Object> headers = new MultivaluedHashMap<>();
    private int status;
    private Object entity;
    private MediaType negotiated;

    private FakeResponse(int status) {
        this.status = status;
    }

    /**
     * @return a response with {@code status}, no header and no entity
     */
    public static FakeResponse of(int status) {
        return new FakeResponse(status);
    }

    /**
     * @return the response a filter aborted with, as the runtime would hand it to the response
     *     filters
     */
    public static FakeResponse of(Response aborted) {
        FakeResponse response = new FakeResponse(aborted.getStatus());
        aborted.getHeaders()
                .forEach((name, values) -> values.forEach(v -> response.header(name, v)));
        response.entity = aborted.getEntity();
        return response;
    }

    /** Sets the entity and its Content-Type. */
    public FakeResponse entity(Object entity, String type) {
        this.entity = entity;
        headers.putSingle(HttpHeaders.CONTENT_TYPE, type);
        return this;
    }

    /**
     * Sets the entity with the media type the runtime chose for it (from {@code @Produces}), which
     * no header carries yet.
     */
    public FakeResponse negotiated(Object entity, String type) {
        this.entity = entity;
        this.negotiated = MediaType.valueOf(type);
        return this;
    }

    /** Adds a header value. */
    public FakeResponse header(String name, Object value) {
        headers.add(name, value);
        return this;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void setStatus(int code) {
        this.status = code;
    }

    @Override
    public Response.StatusType getStatusInfo() {
        return Response.Status.fromStatusCode(status);
    }

    @Override
    public void setStatusInfo(Response.StatusType statusInfo) {
        this.status = statusInfo.getStatusCode();
    }

    @Override
    public MultivaluedMap<String, Object> getHeaders() {
        return headers;
    }

    @Override
    public MultivaluedMap<String, String> getStringHeaders() {
        MultivaluedMap<String, String> strings = new MultivaluedHashMap<>();
        headers.forEach(
                (name, values) -> values.forEach(v -> strings.add(name, String.valueOf(v))));
        return strings;
    }

    @Override
    public String getHeaderString(String name) {
        for (Map.Entry<String, List<Object>> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue().stream()
                        .map(String::valueOf)
                        .collect(Collectors.joining(","));
            }
        }
        return null;
    }

    @Override
    public Set<String> getAllowedMethods() {
        return Set.of();
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
        return -1;
    }

    @Override
    public MediaType getMediaType() {
        String type = getHeaderString(HttpHeaders.CONTENT_TYPE);
        return type == null ? negotiated : MediaType.valueOf(type);
    }

    @Override
    public Map<String, NewCookie> getCookies() {
        return Map.of();
    }

    @Override
    public EntityTag getEntityTag() {
        return null;
    }

    @Override
    public Date getLastModified() {
        return null;
    }

    @Override
    public URI getLocation() {
        String location = getHeaderString(HttpHeaders.LOCATION);
        return location == null ? null : URI.create(location);
    }

    @Override
    public Set<Link> getLinks() {
        return Set.of();
    }

    @Override
    public boolean hasLink(String relation) {
        return false;
    }

    @Override
    public Link getLink(String relation) {
        return null;
    }

    @Override
    public Link.Builder getLinkBuilder(String relation) {
        return null;
    }

    @Override
    public boolean hasEntity() {
        return entity != null;
    }

    @Override
    public Object getEntity() {
        return entity;
    }

    @Override
    public Class<?> getEntityClass() {
        return entity == null ? null : entity.getClass();
    }

    @Override
    public Type getEntityType() {
        return getEntityClass();
    }

    @Override
    public void setEntity(Object entity) {
        this.entity = entity;
    }

    @Override
    public void setEntity(Object entity, Annotation[] annotations, MediaType mediaType) {
        this.entity = entity;
        if (mediaType != null) {
            headers.putSingle(HttpHeaders.CONTENT_TYPE, mediaType.toString());
        }
    }

    @Override
    public Annotation[] getEntityAnnotations() {
        return new Annotation[0];
    }

    @Override
    public OutputStream getEntityStream() {
        throw new UnsupportedOperationException("the writer interceptor context has the stream");
    }

    @Override
    public void setEntityStream(OutputStream outputStream) {
        throw new UnsupportedOperationException("the writer interceptor context has the stream");
    }
}
