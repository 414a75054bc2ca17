package io.idemkit.it.http.filterorder;

import io.idemkit.Idempotent;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.atomic.AtomicInteger;

/** A transfer that must run once per key, and how many times it ran. */
@Path("transfers")
public class TransfersResource {

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Public, as RESTEasy requires of a resource's constructor. */
    public TransfersResource() {}

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response transfer(String body) {
        int run = RUNS.incrementAndGet();
        return Response.status(201).entity("{\"transfer\":" + run + "}").build();
    }

    /** How many POSTs the application's access log saw. */
    @GET
    @Path("logged")
    @Produces(MediaType.TEXT_PLAIN)
    public String logged() {
        return Integer.toString(AccessLogFilter.POSTS.get());
    }

    @GET
    @Path("runs")
    @Produces(MediaType.TEXT_PLAIN)
    public String runs() {
        return Integer.toString(RUNS.get());
    }
}
