package io.idemkit.it.client.app;

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
import jakarta.ws.rs.core.UriInfo;

/** Lets the test make the calling application call the idempotent API, and report back. */
@Path("drive")
@RequestScoped
public class DriveResource {

    @Inject Checkout checkout;
    @Context UriInfo uri;

    public DriveResource() {}

    @POST
    @Path("{path}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject drive(@PathParam("path") String path, @QueryParam("tag") String tag) {
        return json(checkout.charge(uri.getBaseUri(), path, tag));
    }

    @POST
    @Path("charge-and-ship")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject chargeAndShip(@QueryParam("tag") String tag) {
        return json(checkout.chargeAndShip(uri.getBaseUri(), tag));
    }

    /** A call whose key the caller makes anew inside the retried call; reports what it came to. */
    @POST
    @Path("fresh-keys/{path}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject freshKeys(@PathParam("path") String path, @QueryParam("tag") String tag) {
        return Json.createObjectBuilder()
                .add("outcome", checkout.chargeWithFreshKeys(uri.getBaseUri(), path, tag))
                .build();
    }

    private static JsonObject json(Checkout.Result result) {
        return Json.createObjectBuilder()
                .add("status", result.status())
                .add("attempts", result.attempts())
                .add("replayed", result.replayed())
                .add("body", result.body())
                .build();
    }
}
