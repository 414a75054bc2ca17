package io.idemkit.cdi;

import io.idemkit.IdempotencyEvent;
import io.idemkit.core.StoreDecorator;
import io.idemkit.health.StoreReadinessCheck;
import io.idemkit.http.ServletApi;
import io.idemkit.http.ServletRequestEnd;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.telemetry.OperationTelemetry;
import io.idemkit.telemetry.TracingStoreDecorator;
import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Destroyed;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.servlet.ServletRequest;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;

/**
 * Adds the optional integrations (MicroProfile Health, OpenTelemetry, the Servlet API's request
 * end) when, and only when, the application can see their APIs, as synthetic beans and observer
 * methods; loading a class that implements a missing interface would fail the deployment.
 *
 * <p>Why synthetic, and why nothing of them injects: an annotated type that an extension adds
 * without a bean-defining annotation belongs to no bean archive of the application in {@code
 * annotated} discovery mode. Payara (its Weld integration's {@code
 * DeploymentImpl.loadBeanDeploymentArchive}) then puts it in a bean archive of its own, named after
 * the class, from which the library's {@code IdempotencyStore} producer in {@code WEB-INF/lib} is
 * not visible: an injection point there failed the whole deployment (WELD-001408). OpenWebBeans in
 * TomEE has no active {@code @Singleton} context when its Health extension asks for the checks in
 * {@code AfterDeploymentValidation}. So: {@code @Dependent} beans that need no context, whose
 * instances get what they need from the extension (the store, handed over by {@link
 * IdemkitStartup}) or look it up lazily, and observer methods that need no bean instance at all.
 *
 * <p>An integration that cannot be added logs one WARNING naming it, and the application deploys
 * without it.
 */
public final class OptionalIntegrations {

    /** The MicroProfile Health API (the {@code mpHealth} feature on Open Liberty). */
    static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";

    /** The OpenTelemetry API (the {@code mpTelemetry} feature on Open Liberty). */
    static final String OPENTELEMETRY_API = "io.opentelemetry.api.OpenTelemetry";

    private static final System.Logger LOG = System.getLogger(OptionalIntegrations.class.getName());

    private OptionalIntegrations() {}

    /**
     * @param event where the beans and observers go
     * @param beans the bean manager, for the lazy OpenTelemetry lookup
     * @param store the application's store once it has started, empty before
     */
    static void register(
            AfterBeanDiscovery event,
            BeanManager beans,
            Supplier<Optional<IdempotencyStore>> store) {
        ClassLoader loader = OptionalIntegrations.class.getClassLoader();
        boolean servlet =
                ServletApi.isVisible(loader)
                        && wire(
                                "release at servlet request end (a request-scoped bean instead)",
                                () -> addServletRequestEnd(event));
        boolean health =
                isVisible(HEALTH_API, loader)
                        && wire(
                                "MicroProfile Health readiness check " + StoreReadinessCheck.NAME,
                                () -> addHealth(event, store));
        boolean telemetry =
                isVisible(OPENTELEMETRY_API, loader)
                        && wire(
                                "OpenTelemetry metrics and spans",
                                () -> addTelemetry(event, beans));
        LOG.log(
                Level.DEBUG,
                () ->
                        "idemkit optional integrations: MicroProfile Health "
                                + (health ? "on" : "off")
                                + ", OpenTelemetry "
                                + (telemetry ? "on" : "off")
                                + ", release at servlet request end "
                                + (servlet ? "on" : "off (a request-scoped bean instead)"));
    }

    /**
     * @return whether {@code wiring} succeeded; if not, the one WARNING says which integration the
     *     application runs without, and why
     */
    static boolean wire(String integration, Runnable wiring) {
        try {
            wiring.run();
            return true;
        } catch (RuntimeException | LinkageError e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit runs without its optional integration \""
                            + integration
                            + "\": this runtime refused to register it ("
                            + e
                            + ").");
            return false;
        }
    }

    // The class literals below are resolved only when these methods run, that is, only when the
    // API they depend on is there.

    private static void addServletRequestEnd(AfterBeanDiscovery event) {
        // An observer method with no bean: a request end costs one attribute lookup, no instance.
        event.<ServletRequest>addObserverMethod()
                .beanClass(ServletRequestEnd.class)
                .observedType(ServletRequest.class)
                .addQualifier(Destroyed.Literal.REQUEST)
                .notifyWith(context -> ServletRequestEnd.requestEnded(context.getEvent()));
    }

    private static void addHealth(
            AfterBeanDiscovery event, Supplier<Optional<IdempotencyStore>> store) {
        event.addBean()
                .beanClass(StoreReadinessCheck.class)
                .types(HealthCheck.class, Object.class)
                .qualifiers(Readiness.Literal.INSTANCE, Any.Literal.INSTANCE)
                .scope(Dependent.class)
                .createWith(context -> new StoreReadinessCheck(store));
    }

    private static void addTelemetry(AfterBeanDiscovery event, BeanManager beans) {
        Supplier<OperationTelemetry> telemetry =
                new Once<>(() -> new OperationTelemetry(openTelemetry(beans)));
        Guard guard = new Guard("OpenTelemetry metrics and spans");
        event.<IdempotencyEvent>addObserverMethod()
                .beanClass(OperationTelemetry.class)
                .observedType(IdempotencyEvent.class)
                .notifyWith(context -> guard.run(() -> telemetry.get().record(context.getEvent())));
        event.addBean()
                .beanClass(TracingStoreDecorator.class)
                .types(StoreDecorator.class, Object.class)
                .qualifiers(Default.Literal.INSTANCE, Any.Literal.INSTANCE)
                .scope(Dependent.class)
                .createWith(context -> new TracingStoreDecorator(openTelemetry(beans)));
    }

    private static Instance<OpenTelemetry> openTelemetry(BeanManager beans) {
        return beans.createInstance().select(OpenTelemetry.class);
    }

    /**
     * Runs an integration's work on the request path. The runtime's copy of an API can be older
     * than the one the library was compiled against; the first {@link LinkageError} turns the
     * integration off, with one WARNING, so that it never fails a request. (An API's runtime
     * exceptions are not caught: OpenTelemetry's API does not throw.)
     */
    static final class Guard {
        private final String integration;
        private volatile boolean off;

        Guard(String integration) {
            this.integration = integration;
        }

        void run(Runnable work) {
            if (off) {
                return;
            }
            try {
                work.run();
            } catch (LinkageError e) {
                off = true;
                LOG.log(
                        Level.WARNING,
                        "idemkit turned off its optional integration \""
                                + integration
                                + "\": this runtime's copy of its API lacks what idemkit needs ("
                                + e
                                + ").");
            }
        }

        boolean isOff() {
            return off;
        }
    }

    /** A value made on first use, once, then read with one volatile read. */
    private static final class Once<T> implements Supplier<T> {
        private final Supplier<T> make;
        private volatile T value;

        Once(Supplier<T> make) {
            this.make = make;
        }

        @Override
        public T get() {
            T current = value;
            if (current == null) {
                synchronized (this) {
                    current = value;
                    if (current == null) {
                        current = make.get();
                        value = current;
                    }
                }
            }
            return current;
        }
    }

    /**
     * @param className an API type's name
     * @param loader the class loader that would have to load it
     * @return whether it can, without initializing the class
     */
    private static boolean isVisible(String className, ClassLoader loader) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
