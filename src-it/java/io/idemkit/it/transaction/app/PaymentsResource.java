package io.idemkit.it.transaction.app;

import jakarta.ejb.EJBException;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/**
 * The test's way in: {@code POST api/payments?bean=&key=&tag=&holdInside=&holdAfter=&fail=} runs
 * one of the methods; the GETs report how far a tag's calls got. A method's own failure (its {@code
 * fail}) answers 409; idemkit's exceptions are answered by idemkit's mappers.
 */
@Path("payments")
public class PaymentsResource {

    @Inject Payments payments;
    @Inject PaymentsEjb ejb;

    @POST
    public Response pay(
            @QueryParam("bean") String bean,
            @QueryParam("key") String key,
            @QueryParam("tag") String tag,
            @QueryParam("holdInside") String holdInside,
            @QueryParam("holdAfter") String holdAfter,
            @QueryParam("fail") boolean fail)
            throws InterruptedException {
        try {
            String paid =
                    switch (bean) {
                        case "cdi" -> payments.pay(key, tag, holdInside, holdAfter, fail);
                        case "cdi-short" ->
                                payments.payShortLease(key, tag, holdInside, holdAfter, fail);
                        case "cdi-after-commit" ->
                                payments.payCompletingAfterCommit(
                                        key, tag, holdInside, holdAfter, fail);
                        case "ejb" -> ejb.pay(key, tag, holdInside, holdAfter, fail);
                        default -> throw new IllegalArgumentException(bean);
                    };
            return Response.ok(paid).build();
        } catch (IllegalStateException e) {
            return Response.status(409).entity(e.getMessage()).build();
        } catch (EJBException e) {
            if (e.getCause() instanceof IllegalStateException refused) {
                return Response.status(409).entity(refused.getMessage()).build();
            }
            throw e;
        }
    }

    @GET
    @Path("runs/{tag}")
    public String runs(@PathParam("tag") String tag) {
        return Integer.toString(Progress.runs(tag));
    }

    @GET
    @Path("paused/{tag}")
    public String paused(@PathParam("tag") String tag) {
        return Integer.toString(Progress.paused(tag));
    }
}
