package io.idemkit.core;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How many threads of this JVM wait on each key for an in-flight call (C4.3), and the most that may
 * wait on one key at once. A wait holds a server thread for up to {@code wait-timeout}, so without
 * a bound one key sent many times at once could hold every thread of the pool; a duplicate turned
 * away is answered as a wait that timed out: in progress, never a run. Counts are kept only while a
 * key has waiters. Thread-safe.
 */
final class KeyWaiters {

    /**
     * The default bound. Duplicates of one key are a client's retries, a double submit or a
     * broker's redeliveries: a handful at once. 64 is far above that, yet leaves most threads of a
     * request pool of a few hundred to every other key; a smaller pool wants a smaller bound.
     */
    static final int DEFAULT_LIMIT = 64;

    private final int limit;
    private final ConcurrentHashMap<String, Integer> waiting = new ConcurrentHashMap<>();

    /**
     * @param limit the most threads that may wait on one key at once, at least 1
     */
    KeyWaiters(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.limit = limit;
    }

    /**
     * @return the most threads that may wait on one key at once
     */
    int limit() {
        return limit;
    }

    /**
     * Counts a thread in as a waiter on {@code key}, unless the key has {@link #limit()} already.
     *
     * @param key the effective key
     * @return whether the thread may wait; if so, it must {@link #leave} once its wait ends
     */
    boolean enter(String key) {
        boolean[] entered = {false};
        waiting.compute(
                key,
                (k, count) -> {
                    int now = count == null ? 0 : count;
                    if (now >= limit) {
                        return count;
                    }
                    entered[0] = true;
                    return now + 1;
                });
        return entered[0];
    }

    /**
     * Counts out a thread that {@link #enter entered} as a waiter on {@code key}.
     *
     * @param key the effective key
     */
    void leave(String key) {
        waiting.computeIfPresent(key, (k, count) -> count <= 1 ? null : count - 1);
    }

    /**
     * @param key the effective key
     * @return how many threads wait on it now
     */
    int waitingOn(String key) {
        return waiting.getOrDefault(key, 0);
    }
}
