package io.idemkit.it.http.app;

import io.idemkit.spi.IdempotencyStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * One detail of the application store's {@link IdempotencyStore#health()}, as the readiness check
 * reports it, read the same way on every runtime (MicroProfile Health serves it on a different root
 * on each, and only where the feature is enabled).
 */
@Path("store/health")
public class StoreHealthResource {

    @Inject IdempotencyStore store;

    @GET
    @Path("{detail}")
    public String detail(@PathParam("detail") String detail) {
        return String.valueOf(store.health().details().get(detail));
    }
}
