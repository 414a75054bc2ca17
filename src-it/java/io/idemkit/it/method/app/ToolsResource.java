package io.idemkit.it.method.app;

import io.idemkit.IdempotencyException;
import io.idemkit.core.hash.LengthPrefixedSha256;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Calls the {@link Tools} over HTTP, and shows the tests what the store holds. A call answers 200
 * with the result, 409 with a library exception's class and message, or 500 with any other
 * failure's.
 */
@Path("tools")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class ToolsResource {

    @Inject Tools tools;
    @Inject Executions executions;
    @Inject IdempotencyStore store;

    @POST
    @Path("book")
    public Response book(
            @QueryParam("origin") String origin,
            @QueryParam("destination") String destination,
            @QueryParam("requestId") String requestId) {
        return answer(() -> tools.book(origin, destination, requestId));
    }

    @POST
    @Path("{tool: act|crash-once|unserializable}")
    public Response call(@PathParam("tool") String tool, @QueryParam("x") String x) {
        return answer(
                () ->
                        switch (tool) {
                            case "act" -> tools.act(x);
                            case "crash-once" -> tools.crashOnce(x);
                            default -> tools.unserializable(x);
                        });
    }

    /** How many times an operation ran. */
    @GET
    @Path("runs")
    public int runs(@QueryParam("operation") String operation) {
        return executions.count(operation);
    }

    /** How many times a {@link Gadget} was deserialized in this application. */
    @GET
    @Path("gadget-reads")
    public int gadgetReads() {
        return Gadget.reads();
    }

    /** The state of a record, and whether it holds a result; {@code absent} when there is none. */
    @GET
    @Path("record")
    public String record(@QueryParam("key") String effectiveKey) {
        return store.find(effectiveKey)
                .map(r -> r.state() + (r.result() == null ? " without a result" : " with a result"))
                .orElse("absent");
    }

    /**
     * Stores, as the completed result of a tool call without other arguments than its key, a Java
     * serialization stream of a {@link Gadget}: what an attacker with write access to the store
     * could plant.
     */
    @POST
    @Path("planted-serialized")
    public String plantSerialized(@QueryParam("key") String effectiveKey) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Gadget());
        }
        String noArguments = LengthPrefixedSha256.hex(new byte[0][]);
        ClaimResult claim = store.claim(effectiveKey, noArguments, 1, Duration.ofSeconds(30));
        boolean completed =
                store.complete(
                        effectiveKey,
                        claim.token(),
                        new StoredResult(200, List.of(), bytes.toByteArray()),
                        Duration.ofHours(1));
        return claim.status() + (completed ? " and completed" : " but not completed");
    }

    private static Response answer(Callable<Object> call) {
        try {
            return Response.ok(String.valueOf(call.call())).build();
        } catch (IdempotencyException e) {
            return Response.status(409).entity(failure(e)).build();
        } catch (Exception e) {
            return Response.status(500).entity(failure(e)).build();
        }
    }

    private static String failure(Exception e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
