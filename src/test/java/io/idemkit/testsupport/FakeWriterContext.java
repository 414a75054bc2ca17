package io.idemkit.testsupport;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The writer interceptor context of one response: the request's properties, the response's headers
 * (the same map the response filters saw), its entity and the stream to the client. {@link
 * #proceed()} is the message body writer: it writes a {@code byte[]}, a {@code String} (UTF-8) or a
 * {@link StreamingOutput}, and can fail midway like a client that went away.
 */
public final class FakeWriterContext implements WriterInterceptorContext {

    private final Map<String, Object> properties;
    private final MultivaluedMap<String, Object> headers;
    private Object entity;
    private MediaType mediaType;
    private OutputStream out;
    private final int failAfter;

    /**
     * @param properties the request's properties
     * @param response the response whose entity is written
     * @param out the stream to the client
     * @param failAfter how many bytes the writer writes before it throws an {@link IOException}, or
     *     a negative number for a writer that does not fail
     */
    public FakeWriterContext(
            Map<String, Object> properties,
            FakeResponse response,
            OutputStream out,
            int failAfter) {
        this.properties = properties;
        this.headers = response.getHeaders();
        this.entity = response.getEntity();
        this.mediaType = response.getMediaType();
        this.out = out;
        this.failAfter = failAfter;
    }

    @Override
    public void proceed() throws IOException {
        byte[] bytes;
        if (entity instanceof StreamingOutput streaming) {
            streaming.write(out);
            return;
        } else if (entity instanceof byte[] b) {
            bytes = b;
        } else if (entity instanceof String s) {
            bytes = s.getBytes(StandardCharsets.UTF_8);
        } else {
            throw new IllegalStateException("no writer for " + entity);
        }
        if (failAfter >= 0 && failAfter < bytes.length) {
            out.write(bytes, 0, failAfter);
            throw new IOException("Broken pipe");
        }
        out.write(bytes);
    }

    @Override
    public Object getEntity() {
        return entity;
    }

    @Override
    public void setEntity(Object entity) {
        this.entity = entity;
    }

    @Override
    public OutputStream getOutputStream() {
        return out;
    }

    @Override
    public void setOutputStream(OutputStream os) {
        this.out = os;
    }

    @Override
    public MultivaluedMap<String, Object> getHeaders() {
        return headers;
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
        properties.put(name, object);
    }

    @Override
    public void removeProperty(String name) {
        properties.remove(name);
    }

    @Override
    public Annotation[] getAnnotations() {
        return new Annotation[0];
    }

    @Override
    public void setAnnotations(Annotation[] annotations) {}

    @Override
    public Class<?> getType() {
        return entity == null ? null : entity.getClass();
    }

    @Override
    public void setType(Class<?> type) {}

    @Override
    public Type getGenericType() {
        return getType();
    }

    @Override
    public void setGenericType(Type genericType) {}

    @Override
    public MediaType getMediaType() {
        return mediaType;
    }

    @Override
    public void setMediaType(MediaType mediaType) {
        this.mediaType = mediaType;
    }
}
