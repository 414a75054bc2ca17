package io.idemkit.http;

import io.idemkit.Idempotent;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.sse.SseEventSink;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Binds the idempotency filter pair to every resource method that carries {@link Idempotent}, on
 * the method or its class, and to no other: endpoints without the annotation pay nothing. The work
 * of the public dynamic feature {@code io.idemkit.rest.IdempotencyFeature}, which the runtime finds
 * and injects, and which hands its calls here. One instance per feature instance.
 */
public final class FilterBinding {

    private static final System.Logger LOG = System.getLogger(FilterBinding.class.getName());

    private final Supplier<HttpSurface> surface = new LazySurface();

    /** Found on the first annotated method: the providers are all registered by then (C6.10). */
    private volatile LateRequestFilters lateFilters;

    /**
     * Where the request filter runs among the application's request filters (ascending): by default
     * last, after every one of them, whatever its priority, so that a caller one of them rejects
     * gets its answer and never one from the store (C6.10), the principal is known, and the body
     * fingerprinted is the one the resource method receives. Read once, from MicroProfile Config:
     * CDI may not be ready when JAX-RS registers providers.
     */
    private volatile Integer requestPriority;

    /**
     * @param resource the resource method the runtime offers
     * @param context where its providers are registered
     * @param application the application's configuration, where the runtime injected it into the
     *     feature: Jersey lists the application's providers only there, not in a dynamic feature's
     *     {@code FeatureContext}; {@code null} elsewhere
     */
    public void configure(
            ResourceInfo resource, FeatureContext context, Configuration application) {
        Class<?> type = resource.getResourceClass();
        Method method = resource.getResourceMethod();
        if (type == null || method == null) {
            return;
        }
        Idempotent onMethod = annotationOf(type, method);
        Idempotent onType = type.getAnnotation(Idempotent.class);
        if (onMethod == null && onType == null) {
            return;
        }
        Endpoint endpoint = new Endpoint(type, method, onMethod, onType);
        if (isServerSentEvents(method)) {
            LOG.log(
                    Level.WARNING,
                    "@Idempotent on "
                            + endpoint
                            + " has no effect: a server-sent event stream cannot be stored or"
                            + " replayed. Remove the annotation.");
            return;
        }
        int priority = requestPriority(type);
        LateRequestFilters late = lateFilters(type, context, application, priority);
        context.register(
                new IdempotencyFilter(endpoint, surface, late),
                Map.of(
                        ContainerRequestFilter.class, priority,
                        ContainerResponseFilter.class, IdempotencyFilter.RESPONSE_PRIORITY,
                        WriterInterceptor.class, IdempotencyFilter.WRITER_PRIORITY));
        try {
            // Judge now, so that the warning comes at deployment, where CDI is up already (it
            // is on Open Liberty, WildFly and Payara); else the first request judges.
            HttpSurface http = surface.get();
            late.refuses(http.config(), http.settings());
        } catch (RuntimeException e) {
            LOG.log(
                    Level.DEBUG,
                    "idemkit judges the filter order on the first request: CDI is not ready ({0})",
                    e.getClass().getName());
        }
    }

    private int requestPriority(Class<?> resourceClass) {
        Integer priority = requestPriority;
        if (priority == null) {
            try {
                priority =
                        HttpRequestFilterPriority.of(
                                ConfigProvider.getConfig(resourceClass.getClassLoader()));
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        "idemkit could not read "
                                + HttpKeys.REQUEST_FILTER_PRIORITY
                                + " ("
                                + e.getMessage()
                                + "); its request filter runs after every other one.");
                priority = Integer.MAX_VALUE;
            }
            requestPriority = priority;
        }
        return priority;
    }

    private LateRequestFilters lateFilters(
            Class<?> resourceClass,
            FeatureContext context,
            Configuration application,
            int priority) {
        LateRequestFilters late = lateFilters;
        if (late == null) {
            synchronized (this) {
                late = lateFilters;
                if (late == null) {
                    List<Configuration> views = new ArrayList<>();
                    views.add(context.getConfiguration());
                    if (application != null) {
                        views.add(application);
                    }
                    late = LateRequestFilters.scan(views, resourceClass.getClassLoader(), priority);
                    lateFilters = late;
                }
            }
        }
        return late;
    }

    /** The method's annotation, also when it sits on the overridden method of a supertype. */
    private static Idempotent annotationOf(Class<?> type, Method method) {
        Idempotent found = method.getAnnotation(Idempotent.class);
        for (Class<?> c = type;
                found == null && c != null && c != Object.class;
                c = c.getSuperclass()) {
            found = declared(c, method);
            for (Class<?> i : c.getInterfaces()) {
                if (found == null) {
                    found = declared(i, method);
                }
            }
        }
        return found;
    }

    private static Idempotent declared(Class<?> type, Method method) {
        try {
            return type.getDeclaredMethod(method.getName(), method.getParameterTypes())
                    .getAnnotation(Idempotent.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static boolean isServerSentEvents(Method method) {
        if (Arrays.asList(method.getParameterTypes()).contains(SseEventSink.class)) {
            return true;
        }
        Produces produces = method.getAnnotation(Produces.class);
        return produces != null
                && Arrays.stream(produces.value())
                        .anyMatch(p -> p.contains(MediaType.SERVER_SENT_EVENTS));
    }

    /** Resolves the CDI side once, on the first request, when the container is certainly up. */
    private static final class LazySurface implements Supplier<HttpSurface> {

        private volatile HttpSurface resolved;

        @Override
        public HttpSurface get() {
            HttpSurface s = resolved;
            if (s == null) {
                synchronized (this) {
                    s = resolved;
                    if (s == null) {
                        s = CDI.current().select(HttpSurface.class).get();
                        resolved = s;
                    }
                }
            }
            return s;
        }
    }
}
