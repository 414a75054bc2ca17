package io.idemkit.cdi;

import io.idemkit.IdempotencyEvent;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Ticker;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.telemetry.StoreDecorator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Produces the one engine of the application. Its events are fired as synchronous CDI events of
 * type {@link IdempotencyEvent}.
 */
@ApplicationScoped
public class EngineProducer {

    @Produces
    @Singleton
    IdempotencyEngine engine(
            IdempotencyStore store,
            LeaseHeartbeat heartbeat,
            Event<IdempotencyEvent> events,
            Instance<StoreDecorator> decorators) {
        // Optional integrations (one span per store call) wrap the store the engine uses.
        IdempotencyStore used = store;
        for (StoreDecorator decorator : decorators) {
            used = decorator.decorate(used);
        }
        return new IdempotencyEngine(used, events::fire, heartbeat, Ticker.system());
    }

    void close(@Disposes IdempotencyEngine engine) {
        engine.close();
    }
}
