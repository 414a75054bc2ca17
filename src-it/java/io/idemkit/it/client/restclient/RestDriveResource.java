package io.idemkit.it.client.restclient;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/** Lets the test make the calling application call the API through its Rest Client. */
@Path("rest-drive")
@RequestScoped
public class RestDriveResource {

    @Inject RestCheckout checkout;
    @Inject FtCheckout ftCheckout;
    @Inject PooledCheckout pooledCheckout;
    @Context UriInfo uri;

    public RestDriveResource() {}

    @POST
    @Path("{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject drive(@PathParam("kind") String kind, @QueryParam("tag") String tag) {
        return json(checkout.charge(uri.getBaseUri(), kind, tag));
    }

    @POST
    @Path("configured/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject configured(@PathParam("kind") String kind, @QueryParam("tag") String tag) {
        return json(checkout.chargeConfigured(uri.getBaseUri(), kind, tag));
    }

    /** A call whose key the Rest Client makes anew for each request; reports what it came to. */
    @POST
    @Path("fresh-keys/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject freshKeys(@PathParam("kind") String kind, @QueryParam("tag") String tag) {
        return Json.createObjectBuilder()
                .add("outcome", checkout.chargeWithFreshKeys(uri.getBaseUri(), kind, tag))
                .build();
    }

    @POST
    @Path("async-then-sync/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject asyncThenSync(@PathParam("kind") String kind, @QueryParam("tag") String tag)
            throws Exception {
        checkout.asyncThenSync(uri.getBaseUri(), kind, tag);
        return json(new RestCheckout.Result(200, 1, false));
    }

    /** Calls through Fault Tolerance's {@code @Retry}, over the test's proxy on {@code port}. */
    @POST
    @Path("ft/{kind}/via/{port}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject faultTolerance(
            @PathParam("kind") String kind,
            @QueryParam("tag") String tag,
            @PathParam("port") int via) {
        URI base = UriBuilder.fromUri(uri.getBaseUri()).host("127.0.0.1").port(via).build();
        ftCheckout.charge(base, kind, tag);
        return json(new RestCheckout.Result(200, ftCheckout.attempts(tag), false));
    }

    /**
     * Calls through Fault Tolerance's {@code @Asynchronous @Timeout @Retry}, attempt 1 slow to
     * send, over the test's proxy on {@code port}; answers once the retry's charge came back.
     */
    @POST
    @Path("ft-slow-to-send/via/{port}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject slowToSend(@QueryParam("tag") String tag, @PathParam("port") int via)
            throws Exception {
        URI base = UriBuilder.fromUri(uri.getBaseUri()).host("127.0.0.1").port(via).build();
        ftCheckout.slowToSend(base, tag).toCompletableFuture().get(30, TimeUnit.SECONDS);
        return json(new RestCheckout.Result(200, ftCheckout.attempts(tag), false));
    }

    /**
     * {@link PooledCheckout}: failing async operations on the managed executor, their sends going
     * to {@code deadPort} on loopback, where nobody listens; then plain calls.
     */
    @POST
    @Path("pooled/dead/{port}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject pooled(@QueryParam("tag") String tag, @PathParam("port") int deadPort)
            throws Exception {
        URI dead = UriBuilder.fromUri(uri.getBaseUri()).host("127.0.0.1").port(deadPort).build();
        PooledCheckout.Report report = pooledCheckout.run(uri.getBaseUri(), dead, tag);
        return Json.createObjectBuilder()
                .add("failedSends", report.failedSends())
                .add("keyedFailedSends", report.keyedFailedSends())
                .add("failedOn", Json.createArrayBuilder(report.failedOn()))
                .add("plainOn", Json.createArrayBuilder(report.plainOn()))
                .build();
    }

    private static JsonObject json(RestCheckout.Result result) {
        return Json.createObjectBuilder()
                .add("status", result.status())
                .add("attempts", result.attempts())
                .add("replayed", result.replayed())
                .build();
    }
}
