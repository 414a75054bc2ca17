package io.idemkit.demo;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;

/**
 * A payments API whose {@code POST} is safe to retry: send it with an {@code Idempotency-Key}
 * header, and a retry, a double click or a duplicate sent while the first is still running charges
 * once and gets the first answer back.
 */
@Path("payments")
@RequestScoped
public class PaymentsResource {

    /**
     * The longest artificial delay. It stays below the default lease (30 s): the HTTP surface does
     * not renew leases by default, so a handler that outlives its lease could be run again by a
     * duplicate.
     */
    static final long MAX_DELAY_MS = 20_000;

    private final Charges charges;

    /**
     * For the CDI proxy only; CDI creates the resource through the other constructor. Public,
     * because a JAX-RS runtime may refuse a resource class without a public constructor (RESTEasy
     * on WildFly does: RESTEASY003190), and the demo is meant to deploy unchanged on any of them.
     */
    public PaymentsResource() {
        this.charges = null;
    }

    /**
     * @param charges where charges are made and listed
     */
    @Inject
    public PaymentsResource(Charges charges) {
        this.charges = charges;
    }

    /**
     * Charges once per idempotency key.
     *
     * @param request the payment, as JSON
     * @param delayMs how long to work before charging, 0 to {@value #MAX_DELAY_MS} ms, so that a
     *     duplicate can be sent while the first call still runs
     * @param uriInfo for the new charge's URI
     * @return 201 with the charge and its {@code Location}, or 400 and a problem for an invalid
     *     payment
     * @throws InterruptedException if the server stops during the delay
     */
    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response pay(
            PaymentRequest request,
            @QueryParam("delayMs") @DefaultValue("0") long delayMs,
            @Context UriInfo uriInfo)
            throws InterruptedException {
        String problem = request == null ? "the body must be a JSON payment" : request.problem();
        if (problem == null && (delayMs < 0 || delayMs > MAX_DELAY_MS)) {
            problem = "delayMs must be between 0 and " + MAX_DELAY_MS;
        }
        if (problem != null) {
            return DemoProblem.badRequest(
                    "urn:idemkit-demo:invalid-payment", "Invalid payment", problem + ".");
        }
        // The "slow payment provider": the demo's stand-in for real work, not a synchronizer.
        Thread.sleep(delayMs);
        Charge charge = charges.make(request);
        return Response.created(uriInfo.getAbsolutePathBuilder().path(charge.id()).build())
                .entity(charge)
                .build();
    }

    /**
     * @return every charge really made, and how many
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public ChargeList list() {
        List<Charge> all = charges.all();
        return new ChargeList(all.size(), all);
    }

    /**
     * @param id a charge's id
     * @return the charge, or 404
     */
    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response one(@PathParam("id") String id) {
        return charges.find(id)
                .map(c -> Response.ok(c).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).build());
    }
}
