package io.idemkit.it.http.tenantscope;

import io.idemkit.Idempotent;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.atomic.AtomicInteger;

/** An order that must run once per key and tenant, and how many times it ran. */
@Path("orders")
public class OrdersResource {

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Public, as RESTEasy requires of a resource's constructor. */
    public OrdersResource() {}

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response order(@HeaderParam(TenantHeaderScope.HEADER) String tenant, String body) {
        int run = RUNS.incrementAndGet();
        return Response.status(201)
                .entity("{\"tenant\":\"" + tenant + "\",\"run\":" + run + "}")
                .build();
    }

    @GET
    @Path("runs")
    @Produces(MediaType.TEXT_PLAIN)
    public String runs() {
        return Integer.toString(RUNS.get());
    }
}
