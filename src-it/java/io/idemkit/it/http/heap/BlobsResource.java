package io.idemkit.it.http.heap;

import io.idemkit.Idempotent;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A keyed endpoint whose result is {@code size} random bytes, which the store keeps as they are.
 */
@Path("blobs")
public class BlobsResource {

    @POST
    @Idempotent
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public Response create(String body, @QueryParam("size") int size) {
        byte[] blob = new byte[size];
        ThreadLocalRandom.current().nextBytes(blob);
        return Response.status(201).entity(blob).build();
    }
}
