package io.idemkit.it.restclient;

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

/** Lets the test make the calling application call the API through its Rest Client. */
@Path("rest-drive")
@RequestScoped
public class RestDriveResource {

    @Inject RestCheckout checkout;
    @Context UriInfo uri;

    public RestDriveResource() {}

    @POST
    @Path("{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject drive(@PathParam("kind") String kind, @QueryParam("tag") String tag) {
        RestCheckout.Result result = checkout.charge(uri.getBaseUri(), kind, tag);
        return Json.createObjectBuilder()
                .add("status", result.status())
                .add("attempts", result.attempts())
                .add("replayed", result.replayed())
                .build();
    }
}
