package io.idemkit.it.http.app;

import io.idemkit.Idempotent;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/** An endpoint behind authentication (in the WAR whose web.xml asks for it), for tenant tests. */
@Path("secure/resources")
public class SecureResource {

    @Inject Calls calls;

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response create(
            Item item,
            @HeaderParam(ResourcesResource.TAG) String tag,
            @Context SecurityContext sc) {
        int call = calls.record(tag);
        String caller =
                sc.getUserPrincipal() == null ? "anonymous" : sc.getUserPrincipal().getName();
        return Response.status(201)
                .entity(
                        "{\"name\":\""
                                + item.name()
                                + "\",\"call\":"
                                + call
                                + ",\"caller\":\""
                                + caller
                                + "\"}")
                .build();
    }
}
