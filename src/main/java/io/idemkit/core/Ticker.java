package io.idemkit.core;

/**
 * A monotonic time source for elapsed time: wait deadlines and event latency. It is not a clock;
 * lease and expiry decisions belong to the store's clock.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * @return a monotonic reading in nanoseconds, meaningful only as a difference
     */
    long nanos();

    /**
     * @return the JVM's monotonic timer
     */
    static Ticker system() {
        return System::nanoTime;
    }
}
