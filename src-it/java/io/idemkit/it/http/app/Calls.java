package io.idemkit.it.http.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the handler calls that really ran, per test tag, so a test can tell runs from replays. */
@ApplicationScoped
public class Calls {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    int record(String tag) {
        return counts.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    }

    int count(String tag) {
        AtomicInteger count = counts.get(tag);
        return count == null ? 0 : count.get();
    }
}
