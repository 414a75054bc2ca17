package io.idemkit.it.client.restclient;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The idempotent API as a CDI-injected Rest Client that names no provider: the feature is
 * registered by configuration, {@code configured-charges/mp-rest/providers} (C14.4). Its
 * {@code @Path} is on the interface: WildFly finds a {@code @RegisterRestClient} interface in a WAR
 * without {@code beans.xml} only then (without it, the injection point is unsatisfied,
 * WELD-001334).
 */
@Path("charges")
@RegisterRestClient(configKey = ConfiguredChargesClient.CONFIG_KEY)
public interface ConfiguredChargesClient {

    /** The client's configuration key. */
    String CONFIG_KEY = "configured-charges";

    /** The configuration that registers the feature, and the client's read timeout. */
    String CONFIG =
            CONFIG_KEY
                    + "/mp-rest/providers=io.idemkit.client.IdempotencyClientFeature\n"
                    + CONFIG_KEY
                    + "/mp-rest/readTimeout=10000\n";

    @POST
    @Path("{kind}")
    @Produces(MediaType.APPLICATION_JSON)
    String charge(
            @PathParam("kind") String kind, @HeaderParam("X-Test-Tag") String tag, String body);
}
