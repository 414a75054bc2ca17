package io.idemkit.it.method.problems;

import io.idemkit.it.method.app.Executions;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/**
 * Calls the beans and lets their exceptions escape, as an application does that relies on the
 * library's exception mappers (C7.5). Not itself {@code @Idempotent}: the beans are the operations.
 */
@Path("problems")
@RequestScoped
public class ProblemsResource {

    @Inject SlowBookings bookings;
    @Inject Charges charges;
    @Inject Executions executions;

    @POST
    @Path("book")
    public String book(@QueryParam("key") String key) throws InterruptedException {
        return bookings.book(key);
    }

    @POST
    @Path("charge")
    public String charge(@QueryParam("key") String key, @QueryParam("amount") int amount) {
        return charges.charge(key, amount);
    }

    @POST
    @Path("fail")
    public String fail() {
        throw new IllegalStateException("not an idemkit failure");
    }

    @GET
    @Path("count")
    public int count(@QueryParam("operation") String operation) {
        return executions.count(operation);
    }
}
