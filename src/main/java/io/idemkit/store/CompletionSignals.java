package io.idemkit.store;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes the threads of one store instance that wait on a key when the key is completed, released or
 * deleted through the same instance (contract C4.3), or elsewhere when the store hears of it, for
 * {@link CompletionPoll}. What a store does not hear of is seen by polling.
 *
 * <p>A waiter subscribes before it reads the record. A change written before its read is seen by
 * the read; a change written after its subscription leaves a permit that ends its next wait at
 * once. Either way nothing is lost. Thread-safe.
 */
final class CompletionSignals {

    private final ConcurrentHashMap<String, Set<Subscription>> waiting = new ConcurrentHashMap<>();

    Subscription subscribe(String key) {
        Subscription subscription = new Subscription(key);
        waiting.compute(
                key,
                (k, subscribers) -> {
                    Set<Subscription> set =
                            subscribers != null ? subscribers : ConcurrentHashMap.newKeySet();
                    set.add(subscription);
                    return set;
                });
        return subscription;
    }

    void signal(String key) {
        Set<Subscription> subscribers = waiting.get(key);
        if (subscribers != null) {
            subscribers.forEach(Subscription::wake);
        }
    }

    void signalAll() {
        waiting.values().forEach(subscribers -> subscribers.forEach(Subscription::wake));
    }

    /** One waiter's interest in one key; close it when the wait ends. */
    final class Subscription implements AutoCloseable {

        private final String key;
        private final Semaphore wakeUps = new Semaphore(0);

        private Subscription(String key) {
            this.key = key;
        }

        /**
         * Waits until a signal or the pause ends.
         *
         * @return whether a signal ended the wait
         */
        boolean await(long nanos) throws InterruptedException {
            boolean woken = wakeUps.tryAcquire(nanos, TimeUnit.NANOSECONDS);
            wakeUps.drainPermits();
            return woken;
        }

        private void wake() {
            wakeUps.release();
        }

        @Override
        public void close() {
            waiting.computeIfPresent(
                    key,
                    (k, subscribers) -> {
                        subscribers.remove(this);
                        return subscribers.isEmpty() ? null : subscribers;
                    });
        }
    }
}
