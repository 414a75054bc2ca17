package io.idemkit.admin.http;

import io.idemkit.admin.IdempotencyAdmin;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Registers the admin API ({@link AdminEndpoint}) in a JAX-RS application when, and only when,
 * {@code idemkit.admin.enabled=true}: the work of the public feature {@code
 * io.idemkit.rest.IdempotencyAdminFeature}, which says why a feature and a filter rather than a
 * resource.
 */
public final class AdminRegistration {

    /** The public feature's priority: one that no other feature of this library has. */
    public static final int PRIORITY = Priorities.USER + 1001;

    private static final System.Logger LOG = System.getLogger(AdminRegistration.class.getName());

    private AdminRegistration() {}

    /**
     * @param context where the admin filter is registered
     * @return whether it was: the API is enabled
     */
    public static boolean configure(FeatureContext context) {
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
