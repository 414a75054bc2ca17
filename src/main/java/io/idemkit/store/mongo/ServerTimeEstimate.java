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
 * On the fallback path (a server without update pipelines) it stamps what the store writes ({@code
 * claimed_at}, {@code lease_until}, ...); on both paths it answers {@code now()} and lets a claim
 * take a record as live without a second round trip when its lease reaches well beyond the
 * estimate. It never decides a takeover: that compares against the server's own clock.
 *
 * <p>A measurement takes {@link #SAMPLES} samples, each one command that reports the server's
 * {@code localTime}, and keeps the one with the shortest round trip: its midpoint is off by at most
 * half that round trip. A sample whose round trip is longer than {@link #MAX_ROUND_TRIP} (server
 * selection, a handshake, a GC pause) is not trusted: if every sample is that slow, the previous
 * offset is kept as long as the fastest sample agrees with it within its own uncertainty (half its
 * round trip); otherwise (the first measurement, or the previous offset is evidently wrong) the
 * fastest slow sample is used, with a warning. The offset is measured again on the next use:
 *
 * <ul>
 *   <li>every {@link #REFRESH_EVERY} by the client clock, and at once when the client clock has
 *       moved forward by more than that (a forward step);
 *   <li>when the client clock reads more than {@link #STEP_TOLERANCE_MILLIS} earlier than a reading
 *       already seen (a backward step, which would otherwise stamp leases short);
 *   <li>after {@link #suspect()}: a wait found a record lapsed by the server's clock that the claim
 *       just before had taken as live by the estimate;
 *   <li>after {@link #primaryChanged()}: the driver reported a new primary, whose clock may differ.
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

    /** A new measurement this far from the previous one is logged as a clock step. */
    static final long DRIFT_TOLERANCE_MILLIS = 2_000;

    /** How many samples one measurement takes; the fastest counts. */
    static final int SAMPLES = 3;

    /**
     * The longest round trip a sample may take to be trusted: its midpoint is then off by at most
     * half a second, a quarter of the store's 2 s margin.
     */
    static final Duration MAX_ROUND_TRIP = Duration.ofSeconds(1);

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
     * Makes the next use measure the offset again, because the server just disagreed with the
     * estimate: a record the estimate took as live was not live by the server's clock.
     */
    void suspect() {
        markStale("MongoDB server disagreed with the estimated time; measuring again");
    }

    /** Makes the next use measure the offset again, because the driver reported a new primary. */
    void primaryChanged() {
        markStale("MongoDB has a new primary; measuring its clock on the next use");
    }

    private void markStale(String why) {
        if (!stale) {
            stale = true;
            LOG.log(Level.DEBUG, why);
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
            Timed fastest = null;
            for (int i = 0; i < SAMPLES; i++) {
                Timed timed = sample();
                if (fastest == null || timed.roundTripMillis() < fastest.roundTripMillis()) {
                    fastest = timed;
                }
            }
            Timed best = fastest;
            long after = best.afterMillis();
            if (best.roundTripMillis() > MAX_ROUND_TRIP.toMillis()) {
                // A slow sample is off by up to half its round trip; the previous offset is kept
                // when the sample agrees with it that closely, and given up when it does not (a
                // clock step or a new primary made it wrong).
                if (current != null
                        && Math.abs(best.offsetMillis() - current.offsetMillis())
                                <= best.roundTripMillis() / 2) {
                    LOG.log(
                            Level.DEBUG,
                            () ->
                                    "MongoDB clock samples all took over "
                                            + MAX_ROUND_TRIP.toMillis()
                                            + " ms (fastest "
                                            + best.roundTripMillis()
                                            + " ms); keeping the previous offset");
                    Sample kept = new Sample(current.offsetMillis(), after);
                    sample = kept;
                    latestClientMillis.set(after);
                    stale = false;
                    return kept;
                }
                LOG.log(
                        Level.WARNING,
                        () ->
                                "idemkit: every MongoDB clock sample took over "
                                        + MAX_ROUND_TRIP.toMillis()
                                        + " ms (fastest "
                                        + best.roundTripMillis()
                                        + " ms), so the estimated server time may be off by up to"
                                        + " half of that until the next measurement in "
                                        + REFRESH_EVERY.toSeconds()
                                        + " s. Lease decisions are unaffected (the server takes"
                                        + " them).");
            }
            Sample measured = new Sample(best.offsetMillis(), after);
            long before = after - best.roundTripMillis();
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

    private Timed sample() {
        long before = client.millis();
        Instant server = serverTime.get();
        long after = client.millis();
        long midpoint = before + (after - before) / 2;
        return new Timed(server.toEpochMilli() - midpoint, after - before, after);
    }

    /** One sample: its offset, its round trip and when it ended, by the client clock. */
    private record Timed(long offsetMillis, long roundTripMillis, long afterMillis) {}

    /** One measurement: server time minus client time, and when (by the client clock) it was. */
    private record Sample(long offsetMillis, long measuredAtClientMillis) {}
}
