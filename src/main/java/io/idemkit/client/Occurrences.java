package io.idemkit.client;

import java.util.HashMap;
import java.util.Map;

/**
 * How many requests of each method and path a stretch of an operation has keyed, which numbers the
 * next one (C14.2): the operation's own count, or one attempt's (C14.3). Each attempt counts from
 * where the first attempt of its level began, in a count of its own, so that attempts that overlap
 * (a retry started while the attempt before it still runs, as Fault Tolerance's {@code @Timeout}
 * does) give a request sent in each the same number, hence the same key. Thread-safe.
 */
final class Occurrences {

    private final Map<String, Integer> counts;

    Occurrences() {
        this(Map.of());
    }

    Occurrences(Map<String, Integer> start) {
        this.counts = new HashMap<>(start);
    }

    /**
     * @param request the request's method and canonical path
     * @return its number: 1 for the first such request counted here, 2 for the second, and so on
     */
    synchronized int next(String request) {
        return counts.merge(request, 1, Integer::sum);
    }

    /**
     * @return the counts so far, a copy
     */
    synchronized Map<String, Integer> snapshot() {
        return Map.copyOf(counts);
    }

    /** Counts from {@code later} on: what the latest attempt of a level counted (C14.3). */
    synchronized void continueFrom(Map<String, Integer> later) {
        counts.clear();
        counts.putAll(later);
    }
}
