package io.idemkit.store.memory;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.memory.*} keys of the in-memory store, with their defaults: declared in its
 * wing, so that a store brings its keys with it ({@link #all()}, which its factory hands the
 * unknown-key check).
 */
public final class MemoryKeys {

    /**
     * The most entries the in-memory store holds; past it, completed records are evicted, and a new
     * key is refused only when claims in progress fill the store (contract C10.1 to C10.3).
     */
    public static final String MAX_SIZE = ConfigKeys.PREFIX + "memory.max-size";

    /** Default of {@link #MAX_SIZE}. */
    public static final String MAX_SIZE_DEFAULT = "10000";

    /**
     * The most bytes the in-memory store's entries may take, estimated from their keys, bodies and
     * headers; the same eviction as {@link #MAX_SIZE} keeps it (contract C10.1, C10.2).
     */
    public static final String MAX_BYTES = ConfigKeys.PREFIX + "memory.max-bytes";

    /** Default of {@link #MAX_BYTES}: 64 MiB. */
    public static final String MAX_BYTES_DEFAULT = "67108864";

    /** How often the in-memory store purges expired records (a duration). */
    public static final String SWEEP_INTERVAL = ConfigKeys.PREFIX + "memory.sweep-interval";

    /** Default of {@link #SWEEP_INTERVAL}. */
    public static final String SWEEP_INTERVAL_DEFAULT = "60s";

    private MemoryKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(MemoryKeys.class);
    }
}
