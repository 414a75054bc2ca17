package io.idemkit.cdi;

import io.idemkit.IdempotencyEvent;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.StoreDecorator;
import io.idemkit.core.Ticker;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Produces the one engine of the application. Its events are fired as synchronous CDI events of
 * type {@link IdempotencyEvent}.
 */
@ApplicationScoped
public class EngineProducer {

    @Produces
    @Singleton
    IdempotencyEngine engine(
            IdemkitConfig config,
            IdempotencyStore store,
            LeaseHeartbeat heartbeat,
            Event<IdempotencyEvent> events,
            Instance<StoreDecorator> decorators,
            BeanManager beans) {
        // Optional integrations (one span per store call) wrap the store the engine uses.
        IdempotencyStore used = StoreInstance.forApplicationLifetime(store, beans);
        for (StoreDecorator decorator : decorators) {
            used = decorator.decorate(used);
        }
        // Observers are fixed once the container runs: with none, firing an event per operation
        // would only allocate.
        Consumer<IdempotencyEvent> sink = isObserved(beans) ? events::fire : event -> {};
        return new IdempotencyEngine(
                used, sink, heartbeat, Ticker.system(), config.maxWaitersPerKey());
    }

    private static boolean isObserved(BeanManager beans) {
        IdempotencyEvent sample =
                new IdempotencyEvent(
                        IdempotencyEvent.Decision.NEW, "0".repeat(64), Duration.ZERO, "-", 1, "-");
        return !beans.resolveObserverMethods(sample).isEmpty();
    }

    void close(@Disposes IdempotencyEngine engine) {
        engine.close();
    }
}
