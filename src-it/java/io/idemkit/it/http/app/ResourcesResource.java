package io.idemkit.it.http.app;

import io.idemkit.Idempotent;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The conformance file's {@code /resources} endpoint and its variants. Every handler records its
 * run under the {@code X-Test-Tag} header, and can be told (by headers) to wait, answer another
 * status, set headers and cookies, or return a body of a chosen size.
 */
@Path("resources")
public class ResourcesResource {

    static final String TAG = "X-Test-Tag";

    // Outside the fingerprint (C6.9 takes the path, the query and the body), so that the
    // handler's behaviour can change between a request and its duplicate.
    static final String DELAY = "X-Test-Delay-Ms";
    static final String STATUS = "X-Test-Status";
    static final String HEADERS = "X-Test-Headers";

    @Inject Calls calls;
    @Context SecurityContext security;

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(
            Item item,
            @HeaderParam(TAG) String tag,
            @HeaderParam(DELAY) long delayMs,
            @HeaderParam(STATUS) @DefaultValue("201") int status,
            @HeaderParam(HEADERS) boolean withHeaders) {
        return answer(item, tag, delayMs, status, withHeaders);
    }

    @POST
    @Path("impatient")
    @Idempotent(waitTimeout = "200ms")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response impatient(
            Item item, @HeaderParam(TAG) String tag, @HeaderParam(DELAY) long delayMs) {
        return answer(item, tag, delayMs, 201, false);
    }

    @POST
    @Path("keyed-elsewhere")
    @Idempotent(keyHeader = "X-Request-Key", fingerprintHeaders = "Currency")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response keyedElsewhere(Item item, @HeaderParam(TAG) String tag) {
        return answer(item, tag, 0, 201, false);
    }

    @POST
    @Path("keyed-by-body")
    @Idempotent(keyExtractor = OrderReferenceKey.class)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response keyedByBody(Item item, @HeaderParam(TAG) String tag) {
        return answer(item, tag, 0, 201, false);
    }

    @POST
    @Path("fields")
    @Idempotent(fingerprintFields = {"amount", "order.id"})
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response fields(String body, @HeaderParam(TAG) String tag) {
        return echo(body, tag);
    }

    // Its fingerprint fields come from a per-method key, where a test's configuration sets one.
    @POST
    @Path("fields-by-key")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response fieldsByKey(String body, @HeaderParam(TAG) String tag) {
        return echo(body, tag);
    }

    @POST
    @Path("throw")
    @Idempotent(waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response fail(Item item, @HeaderParam(TAG) String tag, @QueryParam("kind") String kind) {
        calls.record(tag);
        if ("mapped".equals(kind)) {
            throw new MappedFailure();
        }
        throw new IllegalStateException("unmapped failure");
    }

    // The crash tests kill the server while this runs, restart it, and wait out the dead claim's
    // lease, which must outlast the restart by far. The 18 s one (about three idle restarts, and
    // the shortest the MongoDB store accepts at its default timeout, 3 × 5 s + 3 s, so that every
    // WAR of this class deploys) is staged first; a restart on a loaded machine that leaves too
    // little of it is staged once more on the 30 s one.
    @POST
    @Path("crashable")
    @Idempotent(leaseTtl = "30s", waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response crashable(
            Item item, @HeaderParam(TAG) String tag, @HeaderParam(DELAY) long delayMs) {
        return answer(item, tag, delayMs, 201, false);
    }

    @POST
    @Path("crashable-soon")
    @Idempotent(leaseTtl = "18s", waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response crashableSoon(
            Item item, @HeaderParam(TAG) String tag, @HeaderParam(DELAY) long delayMs) {
        return answer(item, tag, delayMs, 201, false);
    }

    @POST
    @Path("quick")
    @Idempotent(waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response quick(Item item, @HeaderParam(TAG) String tag) {
        return answer(item, tag, 0, 201, false);
    }

    @POST
    @Path("raw")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.TEXT_PLAIN)
    public Response raw(String body, @HeaderParam(TAG) String tag) {
        int call = calls.record(tag);
        return Response.status(201).entity("call " + call + " got " + body.length()).build();
    }

    @POST
    @Path("error")
    @Idempotent(waitTimeout = "0s")
    public Response error(@HeaderParam(TAG) String tag) {
        calls.record(tag);
        throw new AssertionError("an Error, which no exception mapper handles");
    }

    @POST
    @Path("broken-writer")
    @Idempotent(waitTimeout = "0s")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Blob brokenWriter(@HeaderParam(TAG) String tag) {
        calls.record(tag);
        return new Blob(BlobWriter.BREAKS);
    }

    @POST
    @Path("blob")
    @Idempotent
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Blob blob(@HeaderParam(TAG) String tag, @QueryParam("size") int size) {
        calls.record(tag);
        return new Blob(size);
    }

    @POST
    @Path("stream")
    @Idempotent
    @Produces(MediaType.TEXT_PLAIN)
    public StreamingOutput stream(@HeaderParam(TAG) String tag) {
        int call = calls.record(tag);
        return out -> out.write(("streamed " + call).getBytes(StandardCharsets.UTF_8));
    }

    @POST
    @Path("empty")
    @Idempotent
    public Response empty(@HeaderParam(TAG) String tag, @QueryParam("location") boolean location) {
        int call = calls.record(tag);
        return location
                ? Response.status(201).header("Location", "/resources/" + call).build()
                : Response.noContent().header("ETag", "\"" + call + "\"").build();
    }

    @POST
    @Path("async")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public void async(
            Item item,
            @HeaderParam(TAG) String tag,
            @HeaderParam(DELAY) long delayMs,
            @Suspended AsyncResponse async) {
        String caller = caller();
        CompletableFuture.runAsync(
                () -> async.resume(answer(item, tag, 0, 201, false, caller)),
                CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
    }

    @POST
    @Path("stage")
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> stage(
            Item item, @HeaderParam(TAG) String tag, @HeaderParam(DELAY) long delayMs) {
        String caller = caller();
        return CompletableFuture.supplyAsync(
                () -> answer(item, tag, 0, 201, false, caller),
                CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS));
    }

    @POST
    @Path("plain")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response plain(Item item, @HeaderParam(TAG) String tag) {
        return answer(item, tag, 0, 201, false);
    }

    /** Answers with the run's number and the body it received, so that a replay shows whose. */
    private Response echo(String body, String tag) {
        int call = calls.record(tag);
        return Response.status(201)
                .entity("{\"call\":" + call + ",\"received\":" + body + "}")
                .build();
    }

    private Response answer(Item item, String tag, long delayMs, int status, boolean headers) {
        return answer(item, tag, delayMs, status, headers, caller());
    }

    private Response answer(
            Item item, String tag, long delayMs, int status, boolean headers, String caller) {
        int call = calls.record(tag);
        if (delayMs > 0) {
            try {
                Thread.sleep(delayMs); // the handler's own work, not a test synchronizer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String body =
                "{\"name\":\""
                        + (item == null ? "" : item.name())
                        + "\",\"call\":"
                        + call
                        + ",\"caller\":\""
                        + caller
                        + "\"}";
        Response.ResponseBuilder response = Response.status(status).entity(body);
        if (headers) {
            response.header("Location", "/resources/abc123")
                    .header("ETag", "\"v1\"")
                    .cookie(new NewCookie.Builder("session").value("secret-value").build());
        }
        return response.build();
    }

    private String caller() {
        return security.getUserPrincipal() == null
                ? "anonymous"
                : security.getUserPrincipal().getName();
    }
}
