package io.idemkit.health;

import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Asks a store whether it can serve claims now, through {@link IdempotencyStore#health()}, and
 * turns a store that cannot be reached into a report: a store outage is reported, never thrown.
 * Knows nothing of MicroProfile. Thread-safe.
 */
public final class StoreProbe {

    private StoreProbe() {}

    /**
     * @param store the store, as injected or as the application's startup bean holds it
     * @return its state, with the store's name first in the details; never throws for a store
     *     failure
     */
    public static StoreHealth probe(IdempotencyStore store) {
        Objects.requireNonNull(store, "store");
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", store.name());
        try {
            StoreHealth health = store.health();
            details.putAll(health.details());
            return new StoreHealth(health.up(), details);
        } catch (RuntimeException e) {
            // Store messages never carry a key or a payload (C3, C4.9).
            return StoreHealth.down(details, String.valueOf(e.getMessage()));
        }
    }
}
