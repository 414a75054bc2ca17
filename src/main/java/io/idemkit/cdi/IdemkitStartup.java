package io.idemkit.cdi;

import io.idemkit.core.ScopeResolver;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.System.Logger.Level;

/**
 * At application start, creates the store and the scope resolver, so that their warnings (the
 * in-memory store, single-tenant operation) appear in the startup log and not at the first request,
 * and hands the store to the extension for the readiness check (see {@link OptionalIntegrations}).
 */
@ApplicationScoped
public class IdemkitStartup {

    private static final System.Logger LOG = System.getLogger(IdemkitStartup.class.getName());

    void started(
            @Observes @Initialized(ApplicationScoped.class) Object event,
            IdempotencyStore store,
            ScopeResolver scope,
            IdemkitExtension extension,
            BeanManager beans) {
        extension.storeStarted(StoreInstance.forApplicationLifetime(store, beans));
        LOG.log(Level.INFO, "idemkit is ready, with the " + store.name() + " store.");
        scope.warnIfSingleTenant();
    }
}
