package io.idemkit.it.deployment.wiring;

import io.idemkit.spi.ClaimStatus;

/**
 * What {@link StoreRoundTripResource} saw on its way through the store; the test asserts on it.
 *
 * @param storeName the injected store's {@code name()}
 * @param engineResolvable whether the application can inject the library's engine
 * @param firstClaim the status of the claim on a fresh key
 * @param completed whether completing that claim stored the result
 * @param secondClaim the status of claiming the key again
 * @param replayedStatus the status of the result the second claim found, or 0 for none
 * @param replayedBody the body of that result as UTF-8, or {@code null} for none
 */
public record RoundTrip(
        String storeName,
        boolean engineResolvable,
        ClaimStatus firstClaim,
        boolean completed,
        ClaimStatus secondClaim,
        int replayedStatus,
        String replayedBody) {}
