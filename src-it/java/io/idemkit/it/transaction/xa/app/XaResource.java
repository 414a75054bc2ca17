package io.idemkit.it.transaction.xa.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * Calls {@link XaPayments}: a failure of its transaction answers 500 with the exception's class.
 */
@Path("xa")
@RequestScoped
public class XaResource {

    @Inject XaPayments payments;

    @POST
    @Path("pay/{key}")
    public Response pay(@PathParam("key") String key, @QueryParam("hold") long holdMillis) {
        try {
            return Response.ok(payments.pay(key, holdMillis)).build();
        } catch (Exception e) {
            return Response.serverError().entity(e.getClass().getName()).build();
        }
    }

    @GET
    @Path("messages")
    public Response messages() {
        return Response.ok(String.valueOf(payments.drain())).build();
    }
}
