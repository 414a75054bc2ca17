package io.idemkit.it.http.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The event names emitted for an effective key, comma-separated, in order. */
@Path("events")
public class EventsResource {

    @Inject EventLog log;

    @GET
    @Path("{key}")
    @Produces(MediaType.TEXT_PLAIN)
    public String decisions(@PathParam("key") String effectiveKey) {
        return String.join(",", log.decisionsOf(effectiveKey));
    }

    /** How many events a surface ({@code http} or {@code method}) has emitted in all. */
    @GET
    @Path("surface/{surface}")
    @Produces(MediaType.TEXT_PLAIN)
    public String count(@PathParam("surface") String surface) {
        return Integer.toString(log.countOf(surface));
    }
}
