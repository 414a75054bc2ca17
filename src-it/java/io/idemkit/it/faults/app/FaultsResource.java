package io.idemkit.it.faults.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The fault tests' way in, under the HTTP test application's {@code /api}: {@code POST faults/slow}
 * and {@code faults/pay} with {@code key}, {@code tag} and {@code ms} run {@link FaultWork}'s
 * methods (a method's own failure answers 409; idemkit's exceptions are answered by idemkit's
 * mappers); the GETs report {@link FaultRuns}.
 */
@Path("faults")
@Produces(MediaType.TEXT_PLAIN)
public class FaultsResource {

    @Inject FaultWork work;
    @Inject FaultRuns runs;

    @POST
    @Path("{method}")
    public Response run(
            @PathParam("method") String method,
            @QueryParam("key") String key,
            @QueryParam("tag") String tag,
            @QueryParam("ms") long ms) {
        try {
            String done =
                    switch (method) {
                        case "slow" -> work.slow(key, tag, ms);
                        case "pay" -> work.pay(key, tag, ms);
                        default -> throw new IllegalArgumentException(method);
                    };
            return Response.ok(done).build();
        } catch (IllegalStateException e) {
            return Response.status(409).entity(e.getMessage()).build();
        }
    }

    @GET
    @Path("runs/{tag}")
    public String runs(@PathParam("tag") String tag) {
        return Integer.toString(runs.runs(tag));
    }

    @GET
    @Path("first-run/{tag}")
    public String firstRun(@PathParam("tag") String tag) {
        return Long.toString(runs.firstRun(tag));
    }

    @GET
    @Path("told/{tag}")
    public String told(@PathParam("tag") String tag) {
        return Long.toString(runs.told(tag, -1));
    }
}
