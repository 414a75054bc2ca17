package io.idemkit.cdi;

import io.idemkit.health.StoreReadinessCheck;
import io.idemkit.http.ServletRequestEnd;
import io.idemkit.telemetry.OperationTelemetry;
import io.idemkit.telemetry.TracingStoreDecorator;
import jakarta.enterprise.inject.literal.SingletonLiteral;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import java.lang.System.Logger.Level;

/**
 * Adds the beans of the optional integrations (MicroProfile Health, OpenTelemetry, the Servlet
 * API's request end) when, and only when, the application can see their APIs. Those beans carry no
 * bean-defining annotation, so CDI never discovers (and so never loads) them on a runtime without
 * the API; loading a class that implements a missing interface would fail the deployment. They are
 * added as {@code @Singleton}s: one instance, no client proxy.
 */
public final class OptionalIntegrations {

    /** The MicroProfile Health API (the {@code mpHealth} feature on Open Liberty). */
    static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";

    /** The OpenTelemetry API (the {@code mpTelemetry} feature on Open Liberty). */
    static final String OPENTELEMETRY_API = "io.opentelemetry.api.OpenTelemetry";

    private static final System.Logger LOG = System.getLogger(OptionalIntegrations.class.getName());

    private OptionalIntegrations() {}

    static void register(BeforeBeanDiscovery event) {
        ClassLoader loader = OptionalIntegrations.class.getClassLoader();
        boolean health = isVisible(HEALTH_API, loader);
        boolean telemetry = isVisible(OPENTELEMETRY_API, loader);
        boolean servlet = isVisible(ServletRequestEnd.SERVLET_API, loader);
        if (servlet) {
            addServletRequestEnd(event);
        }
        if (health) {
            addHealth(event);
        }
        if (telemetry) {
            addTelemetry(event);
        }
        LOG.log(
                Level.DEBUG,
                () ->
                        "idemkit optional integrations: MicroProfile Health "
                                + (health ? "on" : "off (no API)")
                                + ", OpenTelemetry "
                                + (telemetry ? "on" : "off (no API)")
                                + ", release at servlet request end "
                                + (servlet ? "on" : "off (no API; a request-scoped bean instead)"));
    }

    // The class literals below are resolved only when these methods run, that is, only when the
    // API they depend on is there.

    private static void addServletRequestEnd(BeforeBeanDiscovery event) {
        event.addAnnotatedType(ServletRequestEnd.class, ServletRequestEnd.class.getName())
                .add(SingletonLiteral.INSTANCE);
    }

    private static void addHealth(BeforeBeanDiscovery event) {
        event.addAnnotatedType(StoreReadinessCheck.class, StoreReadinessCheck.class.getName())
                .add(SingletonLiteral.INSTANCE);
    }

    private static void addTelemetry(BeforeBeanDiscovery event) {
        event.addAnnotatedType(OperationTelemetry.class, OperationTelemetry.class.getName())
                .add(SingletonLiteral.INSTANCE);
        event.addAnnotatedType(TracingStoreDecorator.class, TracingStoreDecorator.class.getName())
                .add(SingletonLiteral.INSTANCE);
    }

    /**
     * @param className an API type's name
     * @param loader the class loader that would have to load it
     * @return whether it can, without initializing the class
     */
    public static boolean isVisible(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
