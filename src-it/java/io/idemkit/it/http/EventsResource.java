package io.idemkit.it.http;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The event names emitted for an effective key, comma-separated, in order. */
@Path("events/{key}")
public class EventsResource {

    @Inject EventLog log;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String decisions(@PathParam("key") String effectiveKey) {
        return String.join(",", log.decisionsOf(effectiveKey));
    }
}
