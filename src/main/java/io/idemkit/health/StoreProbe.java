package io.idemkit.health;

import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Asks a store whether it can serve claims now: MongoDB with one round trip (which also measures
 * the server's clock offset), the in-memory store by its fill level, any other store with a {@code
 * find} of a key no operation uses. A store outage is reported, never thrown. Thread-safe.
 */
public final class StoreProbe {

    /** A key no operation has: effective keys are SHA-256 digests, this is not one in practice. */
    static final String PROBE_KEY = "0".repeat(64);

    private StoreProbe() {}

    /**
     * The state of a store.
     *
     * @param up whether the store can serve claims
     * @param data what the check reports beside the state, in order (the store's name first)
     */
    public record Status(boolean up, Map<String, Object> data) {

        /** Copies the data. */
        public Status {
            data = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(data));
        }
    }

    /**
     * @param store the store object itself (not a CDI client proxy, see {@code StoreInstance})
     * @return its state; never throws for a store failure
     */
    public static Status probe(IdempotencyStore store) {
        Objects.requireNonNull(store, "store");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("store", store.name());
        try {
            if (store instanceof MongoIdempotencyStore mongo) {
                Duration offset = mongo.measureClockOffset();
                data.put("clockOffsetMillis", offset.toMillis());
                return new Status(true, data);
            }
            if (store instanceof InMemoryIdempotencyStore memory) {
                int size = memory.size();
                int max = memory.maxSize();
                data.put("size", size);
                data.put("maxSize", max);
                if (size >= max) {
                    data.put(
                            "error",
                            "the in-memory store is full: new keys are refused until records"
                                    + " expire. Raise idemkit.memory.max-size, shorten"
                                    + " idemkit.completed-ttl, or use the MongoDB store.");
                    return new Status(false, data);
                }
                return new Status(true, data);
            }
            store.find(PROBE_KEY);
            return new Status(true, data);
        } catch (RuntimeException e) {
            // Store messages never carry a key or a payload (C3, C4.9).
            data.put("error", String.valueOf(e.getMessage()));
            return new Status(false, data);
        }
    }
}
