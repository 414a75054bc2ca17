package io.idemkit.store.mongo;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The MongoDB server's current time, estimated as the injected client clock plus a measured offset.
 * It only stamps what the store writes ({@code claimed_at}, {@code lease_until}, ...) and answers
 * {@code now()}; no lease or expiry decision is taken on it, those compare against the server's own
 * clock.
 *
 * <p>The offset is measured with one command that reports the server's {@code localTime}, taking
 * the midpoint of the client readings around it. It is measured again:
 *
 * <ul>
 *   <li>every {@link #REFRESH_EVERY} by the client clock, and at once when the client clock has
 *       moved forward by more than that (a forward step);
 *   <li>at once when the client clock reads more than {@link #STEP_TOLERANCE_MILLIS} earlier than a
 *       reading already seen (a backward step, which would otherwise stamp leases short);
 *   <li>on the next use after a server stamp seen by the store ({@link #observe}) disagreed with
 *       the estimate by more than {@link #DRIFT_TOLERANCE_MILLIS} (the server's clock moved, or a
 *       failover reached a member whose clock differs).
 * </ul>
 *
 * A constant client skew, however large, cancels out of the estimate. Thread-safe: one thread
 * re-measures while the others keep using the previous offset.
 */
final class ServerTimeEstimate {

    /** How often the offset is measured again, by the client clock. */
    static final Duration REFRESH_EVERY = Duration.ofSeconds(30);

    /** A client clock reading this much below one already seen counts as a backward step. */
    static final long STEP_TOLERANCE_MILLIS = 1_000;

    /** A server stamp this far from the estimate marks the offset stale. */
    static final long DRIFT_TOLERANCE_MILLIS = 2_000;

    private static final System.Logger LOG = System.getLogger(ServerTimeEstimate.class.getName());

    private final Clock client;
    private final Supplier<Instant> serverTime;
    private final ReentrantLock measuring = new ReentrantLock();
    private final AtomicLong latestClientMillis = new AtomicLong(Long.MIN_VALUE);
    private volatile Sample sample;
    private volatile boolean stale;

    /**
     * @param client the injected client clock
     * @param serverTime asks the server for its current time (one round trip)
     */
    ServerTimeEstimate(Clock client, Supplier<Instant> serverTime) {
        this.client = client;
        this.serverTime = serverTime;
    }

    /** The estimated server time now, measuring the offset first when it is due. */
    Instant now() {
        long reading = client.millis();
        long latest = latestClientMillis.getAndAccumulate(reading, Math::max);
        Sample current = sample;
        if (current == null || isDue(current, reading, latest)) {
            current = measure(current);
        }
        return Instant.ofEpochMilli(Math.addExact(reading, current.offsetMillis()));
    }

    /**
     * Compares a time the server stamped during an operation with the estimate taken just before
     * sending it; a disagreement beyond the tolerance makes the next use measure again.
     */
    void observe(Instant serverStamp, Instant estimateBeforeSending) {
        long drift = serverStamp.toEpochMilli() - estimateBeforeSending.toEpochMilli();
        if (Math.abs(drift) > DRIFT_TOLERANCE_MILLIS && !stale) {
            stale = true;
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "MongoDB server stamped a time "
                                    + drift
                                    + " ms from the estimate; measuring again");
        }
    }

    private boolean isDue(Sample current, long reading, long latest) {
        long age = reading - current.measuredAtClientMillis();
        return stale
                || age >= REFRESH_EVERY.toMillis()
                || age < -STEP_TOLERANCE_MILLIS
                || latest - reading > STEP_TOLERANCE_MILLIS;
    }

    private Sample measure(Sample seen) {
        if (seen != null && !measuring.tryLock()) {
            return seen;
        }
        if (seen == null) {
            measuring.lock();
        }
        try {
            Sample current = sample;
            if (current != null && current != seen) {
                // Another thread measured while this one waited.
                return current;
            }
            long before = client.millis();
            Instant server = serverTime.get();
            long after = client.millis();
            long midpoint = before + (after - before) / 2;
            Sample measured = new Sample(server.toEpochMilli() - midpoint, after);
            if (current != null
                    && Math.abs(measured.offsetMillis() - current.offsetMillis())
                            > DRIFT_TOLERANCE_MILLIS) {
                long moved = measured.offsetMillis() - current.offsetMillis();
                LOG.log(
                        Level.WARNING,
                        () ->
                                "idemkit: the estimated MongoDB server time moved by "
                                        + moved
                                        + " ms since it was last measured: the JVM clock or the"
                                        + " server's clock was stepped. Lease decisions are"
                                        + " unaffected (the server takes them); stamps written"
                                        + " just before may be off by as much. Keep both clocks"
                                        + " NTP-synchronized.");
            }
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "MongoDB server clock offset "
                                    + measured.offsetMillis()
                                    + " ms (round trip "
                                    + (after - before)
                                    + " ms)");
            sample = measured;
            latestClientMillis.set(after);
            stale = false;
            return measured;
        } finally {
            measuring.unlock();
        }
    }

    /** One measurement: server time minus client time, and when (by the client clock) it was. */
    private record Sample(long offsetMillis, long measuredAtClientMillis) {}
}
