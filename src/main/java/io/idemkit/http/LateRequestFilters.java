package io.idemkit.http;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.ScopeMode;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Configuration;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The application's JAX-RS request filters that run after idemkit's request filter (contract
 * C6.10), found once per application from its JAX-RS {@link Configuration}, and what they mean:
 * idemkit answers a duplicate (a replay, 422, 423) with {@code abortWith}, so such a filter never
 * sees it. If it authenticates, a caller without credentials gets another caller's result.
 *
 * <p>A filter counts when it is the application's (its class is defined by the application's class
 * loader or one of that loader's parents, so not the runtime's own, such as RESTEasy's SSE filter,
 * nor idemkit's), is not {@link PreMatching} (those run before every post-matching filter, whatever
 * their priority), and has a priority of idemkit's request filter or more: the one it was
 * registered with, else its {@link Priority}, else {@link Priorities#USER}. Name-bound filters
 * count too, whichever methods they are bound to: a warning too many is cheaper than an
 * authentication filter missed.
 *
 * <p>Judged once, with the configuration: unless {@code idemkit.http.filters-after-idemkit} lists
 * them all, one WARNING names each filter and its priority; under {@code idemkit.scope-mode=strict}
 * every request to an {@code @Idempotent} endpoint is then refused. Thread-safe.
 */
final class LateRequestFilters {

    private static final System.Logger LOG = System.getLogger(LateRequestFilters.class.getName());

    /** Jersey reports a contract registered without a priority as -1 ({@code NO_PRIORITY}). */
    private static final int NO_PRIORITY = -1;

    private final List<Late> found;
    private final int ours;
    private volatile Boolean refuses;

    private LateRequestFilters(List<Late> found, int ours) {
        this.found = List.copyOf(found);
        this.ours = ours;
    }

    /** None found: nothing to warn about, nothing refused. */
    static LateRequestFilters none() {
        return new LateRequestFilters(List.of(), Integer.MAX_VALUE);
    }

    /**
     * @param configurations what the runtime says of the application's providers; more than one
     *     when one runtime's view may lack some (RESTEasy lists them in the {@code FeatureContext}
     *     of a dynamic feature, Jersey only in the injected application {@code Configuration})
     * @param application the application's class loader
     * @param ours the priority idemkit's request filter is registered with
     * @return the request filters among them that run after idemkit's, each once
     */
    static LateRequestFilters scan(
            List<Configuration> configurations, ClassLoader application, int ours) {
        Map<Class<?>, Integer> filters = new LinkedHashMap<>();
        for (Configuration configuration : configurations) {
            try {
                requestFilters(configuration, application, filters);
            } catch (RuntimeException e) {
                // An injected view a runtime may not resolve outside a request; the other view
                // still counts.
                LOG.log(
                        Level.DEBUG,
                        "idemkit could not read one view of the JAX-RS configuration ({0})",
                        e.getClass().getName());
            }
        }
        List<Late> late = new ArrayList<>();
        filters.forEach(
                (type, priority) -> {
                    // Equal priorities have no defined order: such a filter may run after ours.
                    if (priority >= ours) {
                        late.add(new Late(type.getName(), priority));
                    }
                });
        late.sort(Comparator.comparing(Late::className));
        return new LateRequestFilters(late, ours);
    }

    private static void requestFilters(
            Configuration configuration, ClassLoader application, Map<Class<?>, Integer> into) {
        List<Class<?>> types = new ArrayList<>(configuration.getClasses());
        configuration.getInstances().forEach(i -> types.add(i.getClass()));
        for (Class<?> type : types) {
            if (ContainerRequestFilter.class.isAssignableFrom(type)
                    && !type.isAnnotationPresent(PreMatching.class)
                    && isApplications(type, application)) {
                Integer priority = priority(configuration.getContracts(type), type);
                if (priority != null) {
                    into.merge(type, priority, Math::max);
                }
            }
        }
    }

    /**
     * Judges the filters found against the configuration, once: logs one WARNING when some are not
     * acknowledged.
     *
     * @return whether idemkit must refuse every request ({@code scope-mode=strict} with a filter
     *     not acknowledged)
     */
    boolean refuses(IdemkitConfig config, HttpSettings settings) {
        Boolean r = refuses;
        if (r == null) {
            synchronized (this) {
                r = refuses;
                if (r == null) {
                    r = judge(config, settings);
                    refuses = r;
                }
            }
        }
        return r;
    }

    private boolean judge(IdemkitConfig config, HttpSettings settings) {
        List<Late> unacknowledged =
                found.stream()
                        .filter(f -> !settings.filtersAfterIdemkit().contains(f.className()))
                        .toList();
        if (unacknowledged.isEmpty()) {
            return false;
        }
        boolean strict = config.scopeMode() == ScopeMode.STRICT;
        LOG.log(
                Level.WARNING,
                "idemkit: these JAX-RS request filters of the application run after idemkit's"
                        + " request filter (priority "
                        + ours
                        + ", "
                        + HttpKeys.REQUEST_FILTER_PRIORITY
                        + "): "
                        + unacknowledged.stream()
                                .map(Late::toString)
                                .collect(Collectors.joining(", "))
                        + ". A duplicate request to an @Idempotent endpoint (a replay, 422 or"
                        + " 423) is answered before they run. If one of them authenticates or"
                        + " authorizes, give it @Priority(Priorities.AUTHENTICATION) or"
                        + " @Priority(Priorities.AUTHORIZATION), or leave "
                        + HttpKeys.REQUEST_FILTER_PRIORITY
                        + " at its default (last); if none does, list them in "
                        + HttpKeys.FILTERS_AFTER_IDEMKIT
                        + "."
                        + (strict
                                ? " Under idemkit.scope-mode=strict, every request to an"
                                        + " @Idempotent endpoint is refused (500"
                                        + " urn:idemkit:filter-order) until then."
                                : ""));
        return strict;
    }

    /**
     * The priority of a request filter, or {@code null} when it is registered as something else.
     */
    private static Integer priority(Map<Class<?>, Integer> contracts, Class<?> type) {
        if (contracts != null && !contracts.isEmpty()) {
            Integer registered = contracts.get(ContainerRequestFilter.class);
            if (registered == null) {
                return null; // registered for other contracts only (a response filter)
            }
            if (registered != NO_PRIORITY) {
                return registered;
            }
        }
        Priority annotated = type.getAnnotation(Priority.class);
        return annotated != null ? annotated.value() : Priorities.USER;
    }

    /**
     * Defined by the application's loader or a parent of it, and not idemkit's own filter (its
     * other one, the admin API's, is pre-matching).
     */
    private static boolean isApplications(Class<?> type, ClassLoader application) {
        if (type == IdempotencyFilter.class) {
            return false;
        }
        ClassLoader defining = type.getClassLoader();
        for (ClassLoader l = application; l != null; l = l.getParent()) {
            if (l == defining) {
                return true;
            }
        }
        return false;
    }

    /**
     * One request filter that runs after idemkit's.
     *
     * @param className its class's name
     * @param priority its priority
     */
    record Late(String className, int priority) {
        @Override
        public String toString() {
            return className + " (priority " + priority + ")";
        }
    }
}
