package io.idemkit.it.client.restclient;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletionStage;

/**
 * The idempotent API as a Rest Client that names no provider: {@link PooledCheckout} registers the
 * feature itself, with settings that key no request outside an operation, so that a key on a plain
 * call can only come from an operation a pooled thread kept.
 */
public interface PooledChargesClient {

    /** Sent by the Rest Client on a thread of its executor (C14.8). */
    @POST
    @Path("charges/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    CompletionStage<String> sendAsync(
            @PathParam("kind") String kind, @HeaderParam("X-Test-Tag") String tag, String body);
}
