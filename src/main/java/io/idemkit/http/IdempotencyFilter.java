package io.idemkit.http;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.IdempotencyWire;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.core.Admission;
import io.idemkit.core.Execution;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.core.hash.Fingerprint;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The filter pair of one {@code @Idempotent} resource method (contract C6), with the writer
 * interceptor that counts and holds the body it stores. The request filter claims the key, or
 * answers a duplicate itself (replay, 422, 423, 503); the response filter and the interceptor store
 * what the client receives, or release the claim.
 *
 * <p>Registered by {@link FilterBinding} for annotated methods only, so endpoints without the
 * annotation pay nothing. Thread-safe: one instance serves every request of its method, and the
 * per-request state travels as a request property.
 */
final class IdempotencyFilter
        implements ContainerRequestFilter, ContainerResponseFilter, WriterInterceptor {

    /**
     * Response filters run in descending priority: this one runs last, so that it stores the
     * headers every other filter has set.
     */
    static final int RESPONSE_PRIORITY = 100;

    /**
     * Writer interceptors run in ascending priority, the first one outermost: this one wraps the
     * stream closest to the client, so that it counts and stores the bytes as they go on the wire,
     * after any encoding interceptor ({@link Priorities#ENTITY_CODER}).
     */
    static final int WRITER_PRIORITY = 100;

    /** The request property, in a servlet container a request attribute, of the exchange. */
    static final String EXCHANGE = IdempotencyFilter.class.getName() + ".exchange";

    /** The stored body of a replay, which the writer interceptor sends as it is (C6.2). */
    static final String REPLAY_BODY = IdempotencyFilter.class.getName() + ".replay-body";

    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final System.Logger LOG = System.getLogger(IdempotencyFilter.class.getName());

    private final Endpoint endpoint;
    private final EndpointKeys keys;
    private final Supplier<HttpSurface> surfaces;
    private final LateRequestFilters lateFilters;
    private volatile OperationPolicy policy;

    /**
     * @param lateFilters the application's request filters that run after this one (C6.10)
     */
    IdempotencyFilter(
            Endpoint endpoint, Supplier<HttpSurface> surfaces, LateRequestFilters lateFilters) {
        this.endpoint = endpoint;
        this.keys = new EndpointKeys(endpoint);
        this.surfaces = surfaces;
        this.lateFilters = lateFilters;
    }

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        HttpSurface surface = surfaces.get();
        if (lateFilters.refuses(surface.config(), surface.settings())) {
            // Fail closed before anything is read or claimed: no answer of ours may reach a caller
            // the application's later filters have not checked (C6.10).
            request.abortWith(surface.problems().filterOrder());
            return;
        }
        HttpKeyPolicy keyPolicy = keys.policy(surface.config());
        ReadBody body = null;
        if (keyPolicy.keyExtractor().isPresent()) {
            // The key may be in the body: read it first (C6.1).
            body = readBody(surface, request);
            if (body == null) {
                return;
            }
        }
        Optional<String> key;
        try {
            key =
                    body == null
                            ? IdempotencyKeyHeader.parse(
                                    request.getHeaders().get(keyPolicy.keyHeader()))
                            : keys.extracted(surface, keyPolicy, request, body.fingerprinted());
        } catch (IdempotencyKeyMissingException e) {
            request.abortWith(surface.problems().missingKey(e.getMessage()));
            return;
        }
        if (key.isEmpty()) {
            if (surface.settings().requireKey() && MUTATING.contains(request.getMethod())) {
                request.abortWith(surface.problems().keyRequired(keyPolicy));
            }
            return;
        }
        if (body == null) {
            body = readBody(surface, request);
            if (body == null) {
                return;
            }
        }
        if (body.fingerprinted().isEmpty()) {
            request.setProperty(EXCHANGE, Exchange.bypassed("request-too-large"));
            return;
        }
        Optional<RequestTarget> target =
                RequestTarget.of(request.getUriInfo(), surface::servletTarget);
        if (target.isEmpty()) {
            // The runtime could not parse the request URI, and no raw form is to be had: refuse
            // what cannot be fingerprinted, naming the query, never the key (C6.4).
            request.abortWith(surface.problems().malformedQuery());
            return;
        }
        Operation operation;
        try {
            operation =
                    operation(
                            surface, request, key.get(), target.get(), body.fingerprinted().get());
        } catch (IdempotencyScopeUnavailableException e) {
            LOG.log(Level.WARNING, e.getMessage());
            request.abortWith(surface.problems().identityUnavailable());
            return;
        } catch (IllegalArgumentException e) {
            // A path or query the reference could not encode either (a lone surrogate).
            request.abortWith(surface.problems().malformedQuery());
            return;
        }
        Admission admission;
        try {
            admission = surface.engine().admit(operation);
        } catch (IdempotencyPayloadMismatchException e) {
            request.abortWith(surface.problems().payloadMismatch());
            return;
        } catch (IdempotencyInProgressException e) {
            request.abortWith(surface.problems().inProgress(e));
            return;
        } catch (IdempotencyStorageException e) {
            if (e.kind() != IdempotencyStorageException.Kind.REFUSED) {
                // A refusal (a full store) the engine has logged already, on every surface.
                LOG.log(Level.WARNING, e.getMessage());
            }
            request.abortWith(surface.problems().storageError());
            return;
        }
        if (admission instanceof Admission.Replay replay) {
            // One copy of the stored body, written by aroundWriteTo and named as the entity.
            byte[] stored = replay.result().body();
            request.setProperty(REPLAY_BODY, stored);
            request.abortWith(replayOf(surface, replay, stored));
        } else if (admission instanceof Admission.Proceed proceed) {
            Exchange exchange = Exchange.claimed(proceed.execution());
            // idemkit.http.heartbeat: until the response is stored or the claim released, a body
            // still being written to a slow client being no less in flight than the resource.
            surface.keepAlive(proceed.execution());
            request.setProperty(EXCHANGE, exchange);
            releaseAtRequestEnd(surface, exchange);
        }
        // Admission.Unprotected: the store failed under fail-open; the request runs as if
        // idemkit were not there.
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(EXCHANGE) instanceof Exchange exchange)) {
            return; // not ours: unprotected, or answered by the request filter
        }
        MultivaluedMap<String, Object> headers = response.getHeaders();
        if (exchange.bypass() != null) {
            headers.putSingle(IdempotencyWire.REPLAY_UNAVAILABLE_HEADER, exchange.bypass());
            return;
        }
        Execution execution = exchange.execution();
        if (execution.ended()) {
            // A second pass: the runtime answers with an error response after the first one's
            // writer failed, which held the claim. The error response is not the result.
            return;
        }
        HttpSurface surface = surfaces.get();
        try {
            int status = response.getStatus();
            if (!response.hasEntity()) {
                StoredResult result =
                        new StoredResult(status, surface.headers().select(headers), new byte[0]);
                if (isCacheable(status)) {
                    expiry(surface)
                            .ifPresent(
                                    e -> headers.putSingle(IdempotencyWire.KEY_EXPIRES_HEADER, e));
                }
                execution.finish(result);
            } else if (isStreaming(response)) {
                headers.putSingle(IdempotencyWire.REPLAY_UNAVAILABLE_HEADER, "streaming");
                execution.release();
            } else if (!isCacheable(status)) {
                execution.release();
            } else {
                expiry(surface)
                        .ifPresent(e -> headers.putSingle(IdempotencyWire.KEY_EXPIRES_HEADER, e));
                exchange.awaitBody(status);
            }
        } catch (RuntimeException e) {
            execution.releaseIfUnended();
            throw e;
        }
    }

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        if (context.getProperty(REPLAY_BODY) instanceof byte[] stored) {
            // A replay is sent as it was stored (C6.2): the bytes already went through the
            // application's writer interceptors (a compressing one, say) the first time, so they
            // must not pass them again. This interceptor is the outermost; it writes them itself.
            context.getOutputStream().write(stored);
            return;
        }
        if (!(context.getProperty(EXCHANGE) instanceof Exchange exchange)
                || !exchange.awaitingBody()
                || exchange.execution().ended()) {
            context.proceed();
            return;
        }
        HttpSurface surface = surfaces.get();
        Execution execution = exchange.execution();
        MultivaluedMap<String, Object> headers = context.getHeaders();
        OutputStream wire = context.getOutputStream();
        CapturingOutputStream capture =
                new CapturingOutputStream(
                        wire,
                        surface.config().maxBodyBytes(),
                        () -> {
                            headers.remove(IdempotencyWire.KEY_EXPIRES_HEADER);
                            headers.putSingle(
                                    IdempotencyWire.REPLAY_UNAVAILABLE_HEADER, "size-exceeded");
                            execution.release();
                        });
        context.setOutputStream(capture);
        try {
            context.proceed();
        } catch (IOException | RuntimeException e) {
            if (!capture.overflowed()) {
                // The resource ran, but its response could not be written whole, so there is
                // nothing to replay. Holding the claim keeps an immediate retry from running the
                // side effect again; the lease decides when one may.
                execution.hold();
            }
            throw e;
        } finally {
            context.setOutputStream(wire);
        }
        if (capture.overflowed()) {
            return;
        }
        byte[] body = capture.body();
        // Stored before it is sent: whatever happens to this client's connection, a retry gets
        // the result instead of running the resource again.
        execution.finish(
                new StoredResult(
                        exchange.status(),
                        surface.headers().select(context.getHeaders(), context.getMediaType()),
                        body));
        capture.release();
    }

    /**
     * The body as read, with its form for the fingerprint: empty when the body, or what it decodes
     * to, exceeds {@code idemkit.max-request-bytes}.
     */
    private record ReadBody(Optional<byte[]> fingerprinted) {}

    /**
     * Reads the body and puts the resource's stream in its place.
     *
     * @return the body, or {@code null} when it could not be read whole and the request was
     *     answered
     */
    private ReadBody readBody(HttpSurface surface, ContainerRequestContext request) {
        RequestBody body;
        try {
            body =
                    RequestBody.read(
                            request.getEntityStream(),
                            surface.settings().maxRequestBytes(),
                            request.getLength());
        } catch (IOException e) {
            // A body shorter than its Content-Length, on a connection the client half-closed, or
            // one that stalled: nothing whole to fingerprint. Nothing is claimed yet, so nothing is
            // released; the client's mistake gets 400, not a 500 (C6.4).
            LOG.log(
                    Level.DEBUG,
                    "idemkit refused a request to {0}: its body could not be read whole ({1})",
                    endpoint,
                    e.getClass().getSimpleName());
            request.abortWith(surface.problems().incompleteBody());
            return null;
        }
        request.setEntityStream(body.stream());
        if (body.overLimit()) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit bypassed a request to {0}: its body exceeds idemkit.max-request-bytes",
                    endpoint);
            return new ReadBody(Optional.empty());
        }
        Optional<byte[]> fingerprinted =
                RequestContentCoding.fingerprinted(
                        request.getHeaderString("Content-Encoding"),
                        body.bytes(),
                        surface.settings().maxRequestBytes());
        if (fingerprinted.isEmpty()) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit bypassed a request to {0}: its decoded body exceeds"
                            + " idemkit.max-request-bytes",
                    endpoint);
        }
        return new ReadBody(fingerprinted);
    }

    private Operation operation(
            HttpSurface surface,
            ContainerRequestContext request,
            String key,
            RequestTarget target,
            byte[] body) {
        String scope = surface.scopeOf(request.getSecurityContext());
        String method = request.getMethod();
        String path = target.rawPath();
        EndpointKeys.FingerprintedBody fingerprinted =
                keys.fingerprintedBody(
                        surface.config(), body, request.getHeaderString(HttpHeaders.CONTENT_TYPE));
        return new Operation(
                EffectiveKey.forHttp(key, scope, method, path),
                Fingerprint.forHttp(
                        method,
                        path,
                        target.rawQuery(),
                        fingerprinted.bytes(),
                        fingerprinted.contentType(),
                        keys.fingerprinted(surface.config(), request)),
                Fingerprint.VERSION,
                policy(surface),
                "http");
    }

    private OperationPolicy policy(HttpSurface surface) {
        OperationPolicy resolved = policy;
        if (resolved == null) {
            resolved = surface.policyOf(endpoint);
            policy = resolved;
        }
        return resolved;
    }

    private boolean isCacheable(int status) {
        OperationPolicy p = policy;
        return p != null
                && p.cacheable().isCacheable(new StoredResult(status, List.of(), new byte[0]));
    }

    private static boolean isStreaming(ContainerResponseContext response) {
        MediaType type = response.getMediaType();
        return response.getEntity() instanceof StreamingOutput
                || (type != null && type.isCompatible(MediaType.SERVER_SENT_EVENTS_TYPE));
    }

    private static Response replayOf(HttpSurface surface, Admission.Replay replay, byte[] body) {
        StoredResult result = replay.result();
        Response.ResponseBuilder response = Response.status(result.status());
        for (StoredHeader header : surface.headers().replayable(result.headers())) {
            response.header(header.name(), header.value());
        }
        if (body.length > 0) {
            response.entity(body);
        }
        return response.header(
                        surface.settings().compatMode() == CompatMode.STRIPE
                                ? IdempotencyWire.STRIPE_REPLAYED_HEADER
                                : IdempotencyWire.REPLAYED_HEADER,
                        "true")
                .header(
                        IdempotencyWire.KEY_EXPIRES_HEADER,
                        HttpSurface.imfFixdate(replay.expiresAt()))
                .build();
    }

    /** When a result stored now stops being replayed; empty when the store cannot tell. */
    private Optional<String> expiry(HttpSurface surface) {
        Instant now;
        try {
            now = surface.engine().store().now();
        } catch (RuntimeException e) {
            return Optional.empty(); // the header is advisory; the response is not
        }
        return Optional.of(HttpSurface.imfFixdate(now.plus(policy(surface).completedTtl())));
    }

    private static void releaseAtRequestEnd(HttpSurface surface, Exchange exchange) {
        try {
            surface.releaseAtRequestEnd(exchange);
        } catch (ContextNotActiveException e) {
            // No request context (a JAX-RS runtime outside a servlet container): an unmapped
            // exception then leaves the key to the lease.
            LOG.log(Level.DEBUG, "idemkit found no request context; the lease is the fallback");
        }
    }
}
