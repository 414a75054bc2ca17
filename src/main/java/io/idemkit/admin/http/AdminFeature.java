package io.idemkit.admin.http;

import io.idemkit.admin.IdempotencyAdmin;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers the admin API ({@link AdminEndpoint}) in a JAX-RS application when, and only when,
 * {@code idemkit.admin.enabled=true}.
 *
 * <p>Why a feature and a filter, not a {@code @Path} resource: Open Liberty (like every runtime
 * that scans {@code WEB-INF/lib}) would publish a {@code @Path} class of this jar in every
 * application that bundles it, enabled or not, where it would at least shadow the application's own
 * paths. JAX-RS cannot add a resource conditionally (RESTEasy ignores resources registered by a
 * {@code Feature}), but it can add a provider: this feature, found by JAX-RS 3.1's service loading
 * ({@code META-INF/services/jakarta.ws.rs.core.Feature}), registers a pre-matching filter that
 * answers the admin paths itself. When the API is off nothing is registered, so its paths are as
 * absent as any unknown path. An application that turns service loading off registers this class
 * itself.
 *
 * <p>It carries a {@code @Priority} of its own, as the exception mappers' feature does: RESTEasy's
 * service loader (Open Liberty's {@code restfulWS-3.1}) keeps one feature per priority, so a
 * feature at the default priority could be dropped behind another library's.
 */
@Priority(AdminFeature.PRIORITY)
public final class AdminFeature implements Feature {

    /** The feature's priority: one that no other feature of this library has. */
    static final int PRIORITY = Priorities.USER + 1001;

    private static final System.Logger LOG = System.getLogger(AdminFeature.class.getName());

    @Override
    public boolean configure(FeatureContext context) {
        AdminSettings settings = AdminSettings.read(ConfigProvider.getConfig());
        if (!settings.enabled()) {
            return false;
        }
        if (settings.requiredRole().isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    AdminKeys.ENABLED
                            + "=true, but "
                            + AdminKeys.ROLE
                            + " is not set: the idemkit admin API refuses every call (403). Set "
                            + AdminKeys.ROLE
                            + " to the role of your operators.");
        } else {
            LOG.log(
                    Level.INFO,
                    "idemkit admin API enabled at "
                            + AdminEndpoint.PREFIX
                            + " for callers in role "
                            + settings.role());
        }
        context.register(new AdminEndpoint(settings, new LazyAdmin()), AdminEndpoint.PRIORITY);
        return true;
    }

    /** Resolves the admin bean on the first call, when the CDI container is certainly up. */
    private static final class LazyAdmin implements Supplier<IdempotencyAdmin> {

        private volatile IdempotencyAdmin resolved;

        @Override
        public IdempotencyAdmin get() {
            IdempotencyAdmin a = resolved;
            if (a == null) {
                synchronized (this) {
                    a = resolved;
                    if (a == null) {
                        a = CDI.current().select(IdempotencyAdmin.class).get();
                        resolved = a;
                    }
                }
            }
            return a;
        }
    }
}
