package io.idemkit.spi;

/** What a {@link IdempotencyStore#claim claim} found and did. */
public enum ClaimStatus {
    /** The key was absent (or expired, or unreadable): the caller now holds it. */
    NEW,
    /** A claim on the key had an expired lease: the caller took it over, with a new token. */
    LEASE_RECLAIMED,
    /** Another caller holds a live lease on the key. Nothing was written. */
    ALREADY_CLAIMED,
    /** The key has a completed, unexpired result. Nothing was written. */
    ALREADY_COMPLETED;

    /**
     * @return whether the caller now holds the key and must run the operation
     */
    public boolean won() {
        return this == NEW || this == LEASE_RECLAIMED;
    }
}
