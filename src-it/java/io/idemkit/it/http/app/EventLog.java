package io.idemkit.it.http.app;

import io.idemkit.IdempotencyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the decision of every idempotency event, per effective key, for the tests to read. */
@ApplicationScoped
public class EventLog {

    private final Map<String, List<String>> decisions = new ConcurrentHashMap<>();
    private final Map<String, List<String>> bySurface = new ConcurrentHashMap<>();

    void record(@Observes IdempotencyEvent event) {
        decisions
                .computeIfAbsent(event.effectiveKey(), k -> new CopyOnWriteArrayList<>())
                .add(event.decision().eventName());
        bySurface
                .computeIfAbsent(event.surface(), k -> new CopyOnWriteArrayList<>())
                .add(event.effectiveKey());
    }

    int countOf(String surface) {
        return bySurface.getOrDefault(surface, List.of()).size();
    }

    List<String> decisionsOf(String effectiveKey) {
        return decisions.getOrDefault(effectiveKey, List.of());
    }
}
