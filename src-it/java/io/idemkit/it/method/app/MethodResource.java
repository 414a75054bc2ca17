package io.idemkit.it.method.app;

import io.idemkit.IdempotencyException;
import io.idemkit.Idempotent;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** Calls the test beans over HTTP; answers with the result, or the failure's class name. */
@Path("method")
@RequestScoped
public class MethodResource {

    @Inject StatelessBookings stateless;
    @Inject SingletonBookings singleton;
    @Inject CdiBookings cdi;
    @Inject Executions executions;
    @Inject LeaseHeartbeat heartbeat;
    @Inject IdempotencyStore store;

    @POST
    @Path("{bean}/{operation}")
    public Response call(
            @PathParam("bean") String bean,
            @PathParam("operation") String operation,
            @QueryParam("key") String key) {
        try {
            Object result =
                    switch (bean + "/" + operation) {
                        case "stateless/book" -> stateless.book(key, "seat");
                        case "stateless/rollback" -> stateless.bookThenRollBack(key);
                        case "stateless/fail" -> stateless.bookThenFail(key);
                        case "singleton/book" -> singleton.book(key);
                        case "cdi/book" -> cdi.book(key).toString();
                        case "cdi/tx" -> cdi.bookInTransaction(key, false).toString();
                        case "cdi/tx-fail" -> cdi.bookInTransaction(key, true).toString();
                        default -> throw new IllegalArgumentException(bean + "/" + operation);
                    };
            return Response.ok(String.valueOf(result)).build();
        } catch (IdempotencyException e) {
            return Response.status(409).entity(e.getClass().getSimpleName()).build();
        } catch (Exception e) {
            return Response.status(500).entity("failed: " + e.getClass().getSimpleName()).build();
        }
    }

    /** A resource method that is itself @Idempotent and calls an @Idempotent EJB (C7.4). */
    @POST
    @Path("resource-calls-ejb")
    @Idempotent
    public String resourceCallsEjb(@QueryParam("key") String key) throws InterruptedException {
        int outer = executions.ran("resource:" + key);
        return "outer-" + outer + "/" + stateless.book(key, "via-resource");
    }

    @GET
    @Path("count")
    public int count(@QueryParam("operation") String operation) {
        return executions.count(operation);
    }

    @GET
    @Path("store")
    public String store() {
        return store.name();
    }

    @GET
    @Path("heartbeat")
    public String heartbeat() {
        return heartbeat.borrowsScheduler() ? "managed" : "own";
    }
}
