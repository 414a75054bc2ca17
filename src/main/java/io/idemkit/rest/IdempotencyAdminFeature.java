package io.idemkit.rest;

import io.idemkit.admin.http.AdminRegistration;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Serves the opt-in admin HTTP API over {@code io.idemkit.admin.IdempotencyAdmin} when, and only
 * when, {@code idemkit.admin.enabled=true} (docs/operating.md).
 *
 * <p>Why a feature and a filter, not a {@code @Path} resource: Open Liberty (like every runtime
 * that scans {@code WEB-INF/lib}) would publish a {@code @Path} class of this jar in every
 * application that bundles it, enabled or not, where it would at least shadow the application's own
 * paths. JAX-RS cannot add a resource conditionally (RESTEasy ignores resources registered by a
 * {@code Feature}), but it can add a provider: this feature, found by JAX-RS 3.1's service loading
 * ({@code META-INF/services/jakarta.ws.rs.core.Feature}), registers a pre-matching filter that
 * answers the admin paths itself. When the API is off nothing is registered, so its paths are as
 * absent as any unknown path. An application that turns service loading off lists this class in
 * {@code Application.getClasses()}.
 *
 * <p>It carries a {@code @Priority} of its own, as {@link IdempotencyExceptionMappers} does:
 * RESTEasy's service loader (Open Liberty's {@code restfulWS-3.1}) keeps one feature per priority,
 * so a feature at the default priority could be dropped behind another library's.
 */
@Priority(AdminRegistration.PRIORITY)
public final class IdempotencyAdminFeature implements Feature {

    /** For the runtime, which creates it by reflection or through the service loader. */
    public IdempotencyAdminFeature() {}

    @Override
    public boolean configure(FeatureContext context) {
        return AdminRegistration.configure(context);
    }
}
