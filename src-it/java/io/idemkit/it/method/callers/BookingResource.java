package io.idemkit.it.method.callers;

import io.idemkit.IdempotencyException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * A plain resource, not itself idempotent, that calls the idempotent bean: the request's caller
 * reaches the bean only through CDI. Under {@code secure/} the WAR's web.xml asks for
 * authentication; under {@code open/} anyone may call.
 */
@Path("{access: secure|open}/bookings")
@RequestScoped
public class BookingResource {

    @Inject Bookings bookings;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response book(@QueryParam("flight") String flight, @QueryParam("seat") String seat) {
        try {
            return Response.ok(bookings.book(flight, seat)).build();
        } catch (IdempotencyException e) {
            return Response.status(409).entity(e.getClass().getSimpleName()).build();
        }
    }
}
