package io.idemkit.it.http;

import io.idemkit.Idempotent;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The conformance file's 300 ms lease. Only the in-memory WAR has it: the MongoDB store refuses a
 * lease that short at deployment (a lease must outlast the store's worst-case delay, C9).
 */
@Path("resources/short-lease")
public class ShortLeaseResource {

    @Inject Calls calls;

    @POST
    @Idempotent(leaseTtl = "300ms", waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response shortLease(Item item, @HeaderParam(ResourcesResource.TAG) String tag) {
        int call = calls.record(tag);
        return Response.status(201)
                .entity("{\"name\":\"" + item.name() + "\",\"call\":" + call + "}")
                .build();
    }
}
