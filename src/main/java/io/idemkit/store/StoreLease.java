package io.idemkit.store;

import java.time.Duration;
import java.util.Objects;

/**
 * One effective lease of the deployment, for a store's own lease rule ({@link
 * StoreFactory#leaseProblems}).
 *
 * @param where where it was set, as a message names it, such as {@code idemkit.lease-ttl=30s} or
 *     {@code @Idempotent(leaseTtl="2s") on com.example.Orders.place()}
 * @param lease its value
 */
public record StoreLease(String where, Duration lease) {

    /** Checks that every component is there. */
    public StoreLease {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(lease, "lease");
    }
}
