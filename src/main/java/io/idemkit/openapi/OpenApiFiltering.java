package io.idemkit.openapi;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.http.CompatMode;
import io.idemkit.http.HttpSettings;
import jakarta.enterprise.inject.spi.CDI;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * Describes idemkit's HTTP surface in the application's OpenAPI document (C6.12): the work of the
 * public filter {@code io.idemkit.rest.IdempotencyOpenApiFilter}, which the application names in
 * {@code mp.openapi.filter} or calls from a filter of its own. Each operation of an
 * {@code @Idempotent} resource method gets its key header parameter, the problem responses the HTTP
 * surface may answer (400, 422 and 423, or 409 in the Stripe dialect, and 503) and the replay and
 * expiry headers of its successes, where the document does not describe them already.
 *
 * <p>It never fails a deployment: where the deployment's findings cannot be had (the runtime builds
 * the document before CDI has started) it logs one WARNING and leaves the document as it is.
 * Thread-safe.
 */
public final class OpenApiFiltering {

    private static final System.Logger LOG = System.getLogger(OpenApiFiltering.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private OpenApiFiltering() {}

    /**
     * @param openApi the document, described in place
     */
    public static void filter(OpenAPI openApi) {
        // The runtime may call this on a thread of its own (Payara Micro: the request for
        // /openapi), whose context class loader is not the application's; CDI.current() and
        // MicroProfile Config find the application by it.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(OpenApiFiltering.class.getClassLoader());
        try {
            describe(openApi);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static void describe(OpenAPI openApi) {
        try {
            IdemkitConfig config = CDI.current().select(IdemkitConfig.class).get();
            HttpSettings http = CDI.current().select(HttpSettings.class).get();
            IdempotentResourceMethods resources =
                    CDI.current().select(IdempotentResourceMethods.class).get();
            List<OpenApiEndpoint> endpoints = new ArrayList<>();
            for (ResourceMethod resource : resources.all()) {
                OpenApiEndpoint.of(resource, config.keyDefaults(), ConfigProvider.getConfig())
                        .ifPresent(endpoints::add);
            }
            OpenApiDecoration.decorate(
                    openApi, endpoints, http.compatMode() == CompatMode.STRIPE, http.requireKey());
        } catch (RuntimeException | LinkageError e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.log(
                        Level.WARNING,
                        "idemkit left the OpenAPI document without its key headers and problem"
                                + " responses: "
                                + e.getClass().getName()
                                + ". The application runs as before.");
            }
            LOG.log(Level.DEBUG, "idemkit's OpenAPI filter failed", e);
        }
    }
}
