package io.idemkit.it.http.tenantscope;

import io.idemkit.IdempotencyScopeProvider;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * The scope is the request's {@code X-Tenant} header, as a gateway that authenticated the caller
 * would set it: a bean of the application, in {@code WEB-INF/classes}, which the library in {@code
 * WEB-INF/lib} must find on every runtime.
 */
@ApplicationScoped
public class TenantHeaderScope implements IdempotencyScopeProvider {

    static final String HEADER = "X-Tenant";

    @Inject HttpServletRequest request;

    @Override
    public Optional<String> currentScope() {
        return Optional.ofNullable(request.getHeader(HEADER));
    }
}
