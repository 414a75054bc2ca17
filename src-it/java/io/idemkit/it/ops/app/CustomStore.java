package io.idemkit.it.ops.app;

import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.time.Clock;

/**
 * An application's own store, neither the in-memory nor the MongoDB one, that cannot purge on
 * demand: it keeps the SPI's default {@code purgeExpired()}, which refuses, although the store it
 * forwards to could purge. Only the WAR that tests this includes it.
 */
@Alternative
@Priority(100)
@ApplicationScoped
public class CustomStore extends ForwardingStore {

    public CustomStore() {
        super(new InMemoryIdempotencyStore(Clock.systemUTC(), 1_000));
    }

    @Override
    public String name() {
        return "custom";
    }

    /** Refuses, as every store that does not override the SPI's default does. */
    @Override
    public long purgeExpired() {
        throw new UnsupportedOperationException(
                "The " + name() + " store cannot purge expired records on demand.");
    }
}
