package io.idemkit.it.http.filterorder;

import io.idemkit.IdempotencyScopeProvider;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * One scope for every caller, as in a single-tenant API whose callers share one API key: a scope
 * source, which {@code idemkit.scope-mode=strict} requires.
 */
@ApplicationScoped
public class ShopScope implements IdempotencyScopeProvider {
    @Override
    public Optional<String> currentScope() {
        return Optional.of("shop");
    }
}
