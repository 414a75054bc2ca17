package io.idemkit.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it. Thread-safe. */
public final class ManualClock extends Clock {

    private final AtomicReference<Instant> now;

    /**
     * @param start the initial time
     */
    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
    }

    /**
     * Moves the clock forward.
     *
     * @param amount how far, not negative
     */
    public void advance(Duration amount) {
        if (amount.isNegative()) {
            throw new IllegalArgumentException("a clock moves forward only");
        }
        now.updateAndGet(t -> t.plus(amount));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a ManualClock is always UTC");
    }
}
