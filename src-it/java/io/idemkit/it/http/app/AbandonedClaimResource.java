package io.idemkit.it.http.app;

import io.idemkit.spi.IdempotencyStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;

/**
 * Claims a key through the application's store and never ends the claim: what a server that died
 * right after claiming leaves behind, for a store that cannot outlive a real crash (the in-memory
 * one).
 */
@Path("abandon")
public class AbandonedClaimResource {

    @Inject IdempotencyStore store;

    @POST
    public String abandon(
            @QueryParam("key") String effectiveKey,
            @QueryParam("fingerprint") String fingerprint,
            @QueryParam("leaseMs") long leaseMs) {
        return store.claim(effectiveKey, fingerprint, 1, Duration.ofMillis(leaseMs))
                .status()
                .name();
    }
}
