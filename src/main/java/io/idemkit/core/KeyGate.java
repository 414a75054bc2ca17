package io.idemkit.core;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Lets one waiter of this JVM at a time claim a key again (C4.3): a waiter whose wait ended without
 * the key's record changing claims again, and a claim can wait on the store (a row lock held by a
 * completion inside a business transaction, C13, holds it for the store's lock bound while holding
 * a pooled connection). So the waiters of one key take at most one connection of the pool at a
 * time, whatever their number, and the others wait here, holding none. Gates are kept only while a
 * key has waiters at the gate. Thread-safe.
 */
final class KeyGate {

    private static final class Gate {
        final Semaphore permit = new Semaphore(1, true);
        int users;
    }

    private final ConcurrentHashMap<String, Gate> gates = new ConcurrentHashMap<>();

    /**
     * Waits up to {@code timeoutNanos} for the key's gate.
     *
     * @param key the effective key
     * @param timeoutNanos the longest to wait
     * @return whether the gate was passed; if so, {@link #leave} once the claim returned
     * @throws InterruptedException if interrupted while waiting
     */
    boolean enter(String key, long timeoutNanos) throws InterruptedException {
        Gate gate =
                gates.compute(
                        key,
                        (k, g) -> {
                            Gate used = g == null ? new Gate() : g;
                            used.users++;
                            return used;
                        });
        boolean passed = false;
        try {
            passed = gate.permit.tryAcquire(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
            return passed;
        } finally {
            if (!passed) {
                release(key, gate, false);
            }
        }
    }

    /**
     * Opens the key's gate to the next waiter.
     *
     * @param key the effective key, which this thread {@link #enter entered}
     */
    void leave(String key) {
        Gate gate = gates.get(key);
        if (gate != null) {
            release(key, gate, true);
        }
    }

    private void release(String key, Gate gate, boolean held) {
        if (held) {
            gate.permit.release();
        }
        gates.computeIfPresent(key, (k, g) -> g != gate || --g.users > 0 ? g : null);
    }

    /**
     * @return how many keys have waiters at their gate now
     */
    int size() {
        return gates.size();
    }
}
