package io.idemkit.testsupport;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.WriterInterceptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a JAX-RS runtime does with one provider that is a request filter, a response filter and a
 * writer interceptor: the request filter; the resource unless the filter aborted; the response
 * filter on whichever response there is (an aborted one too); then the writer interceptor around
 * the body writer, when there is an entity. The steps can also run one at a time, for a request
 * still in flight while another arrives.
 *
 * @param <F> the provider under test
 */
public final class JaxRsPipeline<
        F extends ContainerRequestFilter & ContainerResponseFilter & WriterInterceptor> {

    private final F provider;

    public JaxRsPipeline(F provider) {
        this.provider = provider;
    }

    /**
     * The whole exchange.
     *
     * @param request the request
     * @param resource the resource method, run only when the request filter let the request through
     * @return what the client receives
     */
    public Served serve(FakeRequest request, Function<FakeRequest, FakeResponse> resource) {
        if (request(request)) {
            return respond(request, resource.apply(request));
        }
        return respond(request, FakeResponse.of(request.aborted().orElseThrow()));
    }

    /**
     * Runs the request filter alone.
     *
     * @return whether the request goes on to the resource (the filter did not abort it)
     */
    public boolean request(FakeRequest request) {
        try {
            provider.filter(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return request.aborted().isEmpty();
    }

    /** Runs the response filter and writes the entity through the interceptor. */
    public Served respond(FakeRequest request, FakeResponse response) {
        try {
            return write(request, response, -1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * As {@link #respond}, with a body writer that throws after {@code failAfter} bytes, as when
     * the client went away.
     *
     * @throws IOException the writer's failure, as the interceptor let it through
     */
    public Served respondFailing(FakeRequest request, FakeResponse response, int failAfter)
            throws IOException {
        return write(request, response, failAfter);
    }

    /** Runs the response filter alone: the runtime writes the entity later ({@link #write}). */
    public void responseFilter(FakeRequest request, FakeResponse response) {
        try {
            provider.filter(request, response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the entity through the interceptor, once {@link #responseFilter} has run. */
    public Served write(FakeRequest request, FakeResponse response) {
        try {
            return writeEntity(request, response, -1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Served write(FakeRequest request, FakeResponse response, int failAfter)
            throws IOException {
        provider.filter(request, response);
        return writeEntity(request, response, failAfter);
    }

    private Served writeEntity(FakeRequest request, FakeResponse response, int failAfter)
            throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        if (response.hasEntity()) {
            provider.aroundWriteTo(
                    new FakeWriterContext(request.properties(), response, wire, failAfter));
        }
        return new Served(response.getStatus(), response.getHeaders(), wire.toByteArray());
    }

    /**
     * What the client received.
     *
     * @param status the status
     * @param headers the headers
     * @param body the bytes written
     */
    public record Served(int status, MultivaluedMap<String, Object> headers, byte[] body) {

        /**
         * @return the header's values joined by commas, or {@code null} when it is absent
         */
        public String header(String name) {
            for (Map.Entry<String, List<Object>> header : headers.entrySet()) {
                if (header.getKey().equalsIgnoreCase(name)) {
                    return String.join(
                            ",", header.getValue().stream().map(String::valueOf).toList());
                }
            }
            return null;
        }

        /**
         * @param response a response built with JAX-RS's builder, its entity a {@code byte[]} or
         *     none, as a filter aborts with
         * @return what the client receives of it
         */
        public static Served of(Response response) {
            Object entity = response.getEntity();
            return new Served(
                    response.getStatus(),
                    response.getHeaders(),
                    entity == null ? new byte[0] : (byte[]) entity);
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /**
         * @return the body as a JSON object (a problem, or an admin answer)
         */
        public JsonObject json() {
            try (JsonReader reader = Json.createReader(new StringReader(text()))) {
                return reader.readObject();
            }
        }
    }
}
