package io.idemkit.it.method.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts how often each operation really ran; not transactional, so rollbacks keep counts. */
@ApplicationScoped
public class Executions {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public int ran(String operation) {
        return counts.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
    }

    public int count(String operation) {
        AtomicInteger count = counts.get(operation);
        return count == null ? 0 : count.get();
    }
}
