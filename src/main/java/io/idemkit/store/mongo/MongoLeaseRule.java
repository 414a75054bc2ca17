package io.idemkit.store.mongo;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The shortest lease the MongoDB store can keep: {@code 3 × idemkit.mongo.timeout + 3 s}, checked
 * for every effective lease at deployment.
 *
 * <p>Why: a write's lease end is computed when the write is sent, and the driver may spend up to
 * {@code idemkit.mongo.timeout} (server selection, a checkout, a retry during a failover) before
 * the server applies it; on the fallback path the estimate of the server's clock may also be off by
 * up to {@link ClaimAlgorithm#LIVE_MARGIN 2 s}. The heartbeat of a long operation renews every
 * third of the lease, counted from when the claim returned. In the worst case the claim takes the
 * whole timeout, the first renewal is sent a third of the lease later and takes the whole timeout
 * too, and the clock estimate is off by the margin: the renewal still lands while the claim's lease
 * holds when {@code lease > 3 × timeout + 1.5 × margin}. A lease that meets the rule also means a
 * claim never lands spent: it holds the key for at least {@code 2 × timeout + 1 s} after it landed.
 * The heartbeat interval that follows is a third of the lease, what the engine uses; with the
 * default timeout of 5 s the shortest lease is 18 s.
 *
 * <p>Stateless and thread-safe.
 */
public final class MongoLeaseRule {

    private MongoLeaseRule() {}

    /**
     * @param timeout {@code idemkit.mongo.timeout}
     * @return the shortest valid lease: three timeouts plus one and a half times the clock margin
     */
    public static Duration minimumLease(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return timeout.multipliedBy(3)
                .plus(ClaimAlgorithm.LIVE_MARGIN.multipliedBy(3).dividedBy(2));
    }

    /**
     * Checks one effective lease.
     *
     * @param setting where the lease comes from, with its value, as the message should name it:
     *     {@code idemkit.lease-ttl=10s}, or {@code @Idempotent(leaseTtl="3s") on
     *     com.acme.Shop.pay()}
     * @param lease the lease
     * @param timeout {@code idemkit.mongo.timeout}
     * @return the deployment problem, naming both settings and the smallest valid value; empty when
     *     the lease is long enough
     */
    public static Optional<String> problem(String setting, Duration lease, Duration timeout) {
        Duration minimum = minimumLease(timeout);
        if (lease.compareTo(minimum) >= 0) {
            return Optional.empty();
        }
        return Optional.of(
                "Invalid "
                        + setting
                        + ": with the MongoDB store a lease must be at least 3 ×"
                        + " idemkit.mongo.timeout + 3s = "
                        + MongoStoreSettings.format(minimum)
                        + " (idemkit.mongo.timeout="
                        + MongoStoreSettings.format(timeout)
                        + "), or a claim or renewal that takes the whole timeout to reach the"
                        + " server can land with its lease already spent and let a duplicate run."
                        + " Set it to "
                        + MongoStoreSettings.format(minimum)
                        + " or more, or lower idemkit.mongo.timeout.");
    }
}
