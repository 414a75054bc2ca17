package io.idemkit.it.http.app;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * A resource that is also a CDI bean, so the interceptor binding applies to it: the filter pair
 * handles its method, and the interceptor must pass through (C7.4).
 */
@RequestScoped
@Path("scoped")
public class ScopedResource {

    @Inject Calls calls;

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(Item item, @HeaderParam(ResourcesResource.TAG) String tag) {
        int call = calls.record(tag);
        return Response.status(201).entity("{\"call\":" + call + "}").build();
    }
}
