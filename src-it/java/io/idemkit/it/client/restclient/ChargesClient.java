package io.idemkit.it.client.restclient;

import io.idemkit.client.IdempotencyClientFeature;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.rest.client.annotation.ClientHeaderParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;

/**
 * The idempotent API as a MicroProfile Rest Client, with the feature registered as the docs say.
 * The paths are on the methods: an interface with a {@code @Path} of its own is a root resource to
 * a server that scans the WAR (Jersey on Payara), and two methods of one path fail its validation.
 */
@RegisterProvider(IdempotencyClientFeature.class)
public interface ChargesClient {

    /** Returns the entity: a non-2xx answer is a {@code WebApplicationException}. */
    @POST
    @Path("charges/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    String charge(
            @PathParam("kind") String kind, @HeaderParam("X-Test-Tag") String tag, String body);

    /**
     * The same call with a key of the caller's own, which {@link #freshKey()} makes anew for every
     * request, as {@code @ClientHeaderParam} with {@code {uuid}}-style values does (C14.4).
     */
    @POST
    @Path("charges/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    @ClientHeaderParam(name = "Idempotency-Key", value = "{freshKey}")
    String chargeWithFreshKey(
            @PathParam("kind") String kind, @HeaderParam("X-Test-Tag") String tag, String body);

    /**
     * @return a new key for each request
     */
    default String freshKey() {
        return UUID.randomUUID().toString();
    }

    /** The same call, sent by the Rest Client on another thread (C14.8). */
    @POST
    @Path("charges/{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    CompletionStage<String> chargeAsync(
            @PathParam("kind") String kind, @HeaderParam("X-Test-Tag") String tag, String body);
}
