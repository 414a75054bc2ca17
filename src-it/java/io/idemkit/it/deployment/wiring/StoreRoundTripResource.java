package io.idemkit.it.deployment.wiring;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.idemkit.core.IdempotencyEngine;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Drives the store that the library's CDI layer produces, through the SPI only: claim, complete,
 * claim again.
 */
@Path("store")
@Dependent
public class StoreRoundTripResource {

    private static final String FINGERPRINT = "it-fingerprint";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration RETENTION = Duration.ofMinutes(5);

    // Field injection, and so the implicit public no-argument constructor: RESTEasy refuses a
    // resource whose only constructor takes CDI-injected parameters (RESTEASY003190), as JAX-RS
    // 3.1 §3.1.2 allows it to.

    /** The application's store, as the library produces it. */
    @Inject IdempotencyStore store;

    /**
     * The library's engine, looked up rather than injected so that its absence shows up as a failed
     * assertion instead of a failed deployment.
     */
    @Inject Instance<IdempotencyEngine> engine;

    /**
     * @param key the key to claim, fresh for each call
     * @param body the result body to store
     * @return what each step returned
     */
    @POST
    @Path("round-trip")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.APPLICATION_JSON)
    public RoundTrip claimCompleteClaim(@QueryParam("key") String key, String body) {
        ClaimResult first =
                store.claim(key, FINGERPRINT, IdempotencyRecord.CURRENT_FINGERPRINT_VERSION, LEASE);
        boolean completed =
                first.status().won()
                        && store.complete(
                                key,
                                first.token(),
                                new StoredResult(
                                        201,
                                        List.of(new StoredHeader("Content-Type", "text/plain")),
                                        body.getBytes(UTF_8)),
                                RETENTION);
        ClaimResult second =
                store.claim(key, FINGERPRINT, IdempotencyRecord.CURRENT_FINGERPRINT_VERSION, LEASE);
        Optional<StoredResult> replayed = second.record().storedResult();
        return new RoundTrip(
                store.name(),
                engine.isResolvable(),
                first.status(),
                completed,
                second.status(),
                replayed.map(StoredResult::status).orElse(0),
                replayed.map(result -> new String(result.body(), UTF_8)).orElse(null));
    }
}
