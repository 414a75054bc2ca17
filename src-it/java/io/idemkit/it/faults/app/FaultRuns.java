package io.idemkit.it.faults.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the fault tests read of one node, per test tag: how many runs began, when the first began,
 * and when a run was told its lease was lost (its thread interrupted, C4.7). The times are the wall
 * clock's, in epoch milliseconds, so that a test can order events on two servers of one machine.
 */
@ApplicationScoped
public class FaultRuns {

    private final Clock clock = Clock.systemUTC();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final Map<String, Long> firstRun = new ConcurrentHashMap<>();
    private final Map<String, Long> told = new ConcurrentHashMap<>();

    void ran(String tag) {
        firstRun.putIfAbsent(tag, clock.millis());
        runs.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    }

    void told(String tag) {
        told.putIfAbsent(tag, clock.millis());
    }

    int runs(String tag) {
        AtomicInteger count = runs.get(tag);
        return count == null ? 0 : count.get();
    }

    long firstRun(String tag) {
        return firstRun.getOrDefault(tag, -1L);
    }

    long told(String tag, long absent) {
        return told.getOrDefault(tag, absent);
    }
}
