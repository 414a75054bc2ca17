package io.idemkit.cdi;

import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreSelection;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.lang.System.Logger.Level;

/**
 * Produces the application's {@link IdempotencyStore}: the bundled store the extension chose at
 * deployment ({@link StoreSelection}: {@code idemkit.store}, each store's configuration, the
 * application's beans), made by that store's own {@link StoreFactory} with the configuration and
 * the container's resources. This class knows no store: every store's wing is in its own package
 * ({@code io.idemkit.store.memory}, {@code .mongo}, {@code .jdbc}), and no bean signature here
 * names a driver's type, so that the producer is there whichever drivers the application has (C8).
 *
 * <p>An application that brings its own store declares it as an enabled alternative
 * ({@code @Alternative @Priority(...)}), which takes precedence over this producer.
 */
@ApplicationScoped
public class StoreProducer {

    private static final System.Logger LOG = System.getLogger(StoreProducer.class.getName());

    /** The store's wing, once it made the store, to stop what it runs beside it. */
    private volatile StoreFactory made;

    @Produces
    @ApplicationScoped
    IdempotencyStore store(IdemkitExtension extension) {
        StoreSelection selection = extension.storeSelection();
        selection
                .problem()
                .ifPresent(
                        p -> {
                            throw new IllegalStateException(p);
                        });
        selection.warnings().forEach(w -> LOG.log(Level.WARNING, w));
        StoreFactory factory = selection.factory();
        IdempotencyStore store = factory.store(extension.storeResources(), extension.config());
        made = factory;
        return store;
    }

    void close(@Disposes IdempotencyStore store) {
        stopWing();
        store.close();
    }

    /**
     * Stops what the store's wing runs beside it, so that a stopped application leaves no thread.
     */
    @PreDestroy
    void stopWing() {
        StoreFactory running = made;
        made = null;
        if (running != null) {
            running.stop();
        }
    }
}
