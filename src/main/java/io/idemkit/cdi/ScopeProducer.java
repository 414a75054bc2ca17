package io.idemkit.cdi;

import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.AuthenticatedName;
import io.idemkit.core.ScopeResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import java.security.Principal;
import java.time.Clock;
import java.util.Optional;

/**
 * Produces the scope resolver: the application's {@link IdempotencyScopeProvider} bean, the
 * authenticated principal ({@code idemkit.scope-source=principal}), or, without either, the
 * single-tenant resolver, which still keeps the method surface's authenticated callers apart by the
 * CDI {@code Principal}, as the HTTP surface does by the request's (C5).
 */
@ApplicationScoped
public class ScopeProducer {

    @Produces
    @Singleton
    ScopeResolver scope(
            IdemkitConfig config,
            IdemkitExtension extension,
            BeanManager beans,
            Instance<Principal> principal) {
        Principal caller = callerOf(principal);
        if (config.scopeSource() == ScopeSource.PRINCIPAL) {
            return ScopeResolver.of(
                    () -> AuthenticatedName.of(caller),
                    "the authenticated principal",
                    config.scopeMode(),
                    Clock.systemUTC());
        }
        Optional<Bean<?>> provider = extension.scopeProvider();
        if (provider.isPresent()) {
            Bean<?> bean = provider.get();
            return ScopeResolver.of(
                    () -> currentScope(beans, bean),
                    "the IdempotencyScopeProvider bean",
                    config.scopeMode(),
                    Clock.systemUTC());
        }
        return ScopeResolver.singleTenant(
                () -> AuthenticatedName.of(caller), config.scopeMode(), Clock.systemUTC());
    }

    /**
     * Asks the application's provider bean, found by the extension in whichever bean archive it is
     * (a lookup by type from the library's archive misses it on Payara); a {@code @Dependent}
     * provider is destroyed after the call.
     */
    private static Optional<String> currentScope(BeanManager beans, Bean<?> bean) {
        CreationalContext<?> context = beans.createCreationalContext(bean);
        try {
            return ((IdempotencyScopeProvider)
                            beans.getReference(bean, IdempotencyScopeProvider.class, context))
                    .currentScope();
        } finally {
            context.release();
        }
    }

    /**
     * The container's built-in {@code Principal} bean, looked up once: on Weld (Open Liberty,
     * WildFly, Payara) and on OpenWebBeans it is a proxy that asks the security service for the
     * caller of the moment on each call, so one instance serves every call. It is never destroyed:
     * neither container can destroy it through an {@code Instance.Handle} (Weld throws an {@code
     * UnsupportedOperationException}, OpenWebBeans 4.0.3 a {@code ClassCastException}), which once
     * made every call under {@code scope-source=principal} fail as "no identity", and both keep
     * nothing to release.
     *
     * @return the caller's principal, or {@code null} where the container has none, which counts as
     *     anonymous
     */
    private static Principal callerOf(Instance<Principal> principal) {
        return principal.isResolvable() ? principal.get() : null;
    }
}
