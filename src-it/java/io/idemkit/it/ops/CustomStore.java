package io.idemkit.it.ops;

import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.time.Clock;

/**
 * An application's own store, neither the in-memory nor the MongoDB one: the admin API cannot purge
 * it on demand. Only the WAR that tests this includes it.
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
}
