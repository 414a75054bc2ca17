package io.idemkit.it.kafka.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicInteger;

/** How many times {@link Payments} ran for a payload. */
@Path("runs")
public class EffectsResource {

    @GET
    @Path("{payload}")
    @Produces(MediaType.TEXT_PLAIN)
    public String runs(@PathParam("payload") String payload) {
        AtomicInteger runs = Payments.RUNS.get(payload);
        return Integer.toString(runs == null ? 0 : runs.get());
    }
}
