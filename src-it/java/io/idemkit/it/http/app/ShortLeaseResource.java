package io.idemkit.it.http.app;

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
 * Leases shorter than the MongoDB store allows at deployment (a lease must outlast the store's
 * worst-case delay, C9), so only the in-memory and JDBC WARs have them: the conformance file's 300
 * ms, a 1 s lease that a slower resource outlives, for the HTTP heartbeat, and a 5 s lease that a
 * dead node's claim soon loses, with a wait that outlasts it, for a takeover between two nodes.
 */
@Path("resources/short-lease")
public class ShortLeaseResource {

    @Inject Calls calls;

    @POST
    @Path("outlived")
    @Idempotent(leaseTtl = "1s", waitTimeout = "0s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response outlived(
            Item item,
            @HeaderParam(ResourcesResource.TAG) String tag,
            @HeaderParam("X-Test-Delay-Ms") long delayMs)
            throws InterruptedException {
        int call = calls.record(tag);
        Thread.sleep(delayMs); // the resource's own slow work
        return Response.status(201).entity("{\"call\":" + call + "}").build();
    }

    @POST
    @Path("takeover")
    @Idempotent(leaseTtl = "5s", waitTimeout = "30s")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response takeover(
            Item item,
            @HeaderParam(ResourcesResource.TAG) String tag,
            @HeaderParam("X-Test-Delay-Ms") long delayMs)
            throws InterruptedException {
        return outlived(item, tag, delayMs);
    }

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
