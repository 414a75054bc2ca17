package io.idemkit.it.transaction.slowcommit;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts what happened to each key: its runs, and the commits that began. Not transactional, so a
 * rollback keeps the counts.
 */
@ApplicationScoped
public class Progress {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public int count(String what, String key) {
        return counts.computeIfAbsent(what + "/" + key, k -> new AtomicInteger()).incrementAndGet();
    }

    public int get(String what, String key) {
        AtomicInteger count = counts.get(what + "/" + key);
        return count == null ? 0 : count.get();
    }
}
