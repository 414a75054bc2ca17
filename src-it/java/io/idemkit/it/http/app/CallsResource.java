package io.idemkit.it.http.app;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** How many times the handlers really ran for a tag. */
@Path("calls/{tag}")
public class CallsResource {

    @Inject Calls calls;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String count(@PathParam("tag") String tag) {
        return Integer.toString(calls.count(tag));
    }
}
