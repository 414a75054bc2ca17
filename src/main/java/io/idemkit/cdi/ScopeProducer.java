package io.idemkit.cdi;

import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.AuthenticatedName;
import io.idemkit.core.ScopeResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.Principal;
import java.time.Clock;
import java.util.Optional;

/**
 * Produces the scope resolver: the application's {@link IdempotencyScopeProvider} bean, the
 * authenticated principal ({@code idemkit.scope-source=principal}), or single-tenant operation.
 */
@ApplicationScoped
public class ScopeProducer {

    @Produces
    @Singleton
    ScopeResolver scope(
            IdemkitConfig config,
            Instance<IdempotencyScopeProvider> providers,
            Instance<Principal> principal) {
        if (config.scopeSource() == ScopeSource.PRINCIPAL) {
            return ScopeResolver.of(
                    () -> principalName(principal),
                    "the authenticated principal",
                    config.scopeMode(),
                    Clock.systemUTC());
        }
        if (providers.isResolvable()) {
            return ScopeResolver.of(
                    () -> {
                        try (Instance.Handle<IdempotencyScopeProvider> handle =
                                providers.getHandle()) {
                            return handle.get().currentScope();
                        }
                    },
                    "the IdempotencyScopeProvider bean",
                    config.scopeMode(),
                    Clock.systemUTC());
        }
        return ScopeResolver.singleTenant(config.scopeMode(), Clock.systemUTC());
    }

    private static Optional<String> principalName(Instance<Principal> principal) {
        if (!principal.isResolvable()) {
            return Optional.empty();
        }
        try (Instance.Handle<Principal> handle = principal.getHandle()) {
            return AuthenticatedName.of(handle.get());
        }
    }
}
