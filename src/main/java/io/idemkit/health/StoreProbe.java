package io.idemkit.health;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Asks a store whether it can serve claims now, through {@link IdempotencyStore#health()}, and
 * turns a store that cannot be reached into a report: a store outage is reported, never thrown.
 * Knows nothing of MicroProfile. Thread-safe.
 *
 * <p>The report says only the kind of failure: a driver's message can name hosts, users and
 * databases, and {@code /health/ready} is often open to anyone who can reach the server. The
 * message goes to this class's logger at {@code DEBUG} ({@code FINE}) (C4.11).
 */
public final class StoreProbe {

    private static final System.Logger LOG = System.getLogger(StoreProbe.class.getName());

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
            LOG.log(Level.DEBUG, () -> "idemkit's " + store.name() + " store is not ready", e);
            return StoreHealth.down(details, error(e));
        }
    }

    /**
     * @param e why the store could not answer
     * @return the report's text: the kind of failure and where to read more, never the message
     */
    private static String error(RuntimeException e) {
        String kind = IdempotencyStorageException.kindOf(e).name().toLowerCase(Locale.ROOT);
        return "The store cannot serve claims ("
                + kind
                + "). Its message is logged at DEBUG (FINE) by "
                + StoreProbe.class.getName()
                + "; check that the store is reachable.";
    }
}
