package io.idemkit.it.message.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** What the message-driven beans did, per test tag, in this server's life. */
@ApplicationScoped
public class Ledger {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    void count(String what, String tag) {
        counts.computeIfAbsent(what + "/" + tag, k -> new AtomicInteger()).incrementAndGet();
    }

    int get(String what, String tag) {
        AtomicInteger count = counts.get(what + "/" + tag);
        return count == null ? 0 : count.get();
    }
}
