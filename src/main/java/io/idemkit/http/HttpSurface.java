package io.idemkit.http;

import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.ScopeSource;
import io.idemkit.core.AuthenticatedName;
import io.idemkit.core.Execution;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeResolver;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What the filter pair needs from the application, resolved once per application from CDI: the
 * engine, the validated configuration, the scope, and how a request's end is noticed. Thread-safe.
 */
@Dependent
public class HttpSurface {

    private static final System.Logger LOG = System.getLogger(HttpSurface.class.getName());

    /** IMF-fixdate (RFC 9110 5.6.7), always two-digit days, always GMT. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
                    .withZone(ZoneOffset.UTC);

    /** The last second {@link #imfFixdate} formatted, shared by all requests. */
    private static volatile FormattedSecond lastFormatted;

    private final IdempotencyEngine engine;
    private final IdemkitConfig config;
    private final HttpSettings settings;
    private final ScopeResolver scope;
    private final MethodPolicyLookup policies;
    private final Instance<UnendedExecutions> guard;
    private final boolean servletApi;
    private final ProblemResponses problems;
    private final StoredHeaders headers;

    @Inject
    HttpSurface(
            IdempotencyEngine engine,
            IdemkitConfig config,
            HttpSettings settings,
            ScopeResolver scope,
            MethodPolicyLookup policies,
            Instance<UnendedExecutions> guard) {
        // The same test that decides whether the extension adds ServletRequestEnd.
        this(
                engine,
                config,
                settings,
                scope,
                policies,
                guard,
                ServletApi.isVisible(HttpSurface.class.getClassLoader()));
    }

    /**
     * @param servletApi whether the application sees the Servlet API, whose request end {@link
     *     ServletRequestEnd} observes for every request
     */
    HttpSurface(
            IdempotencyEngine engine,
            IdemkitConfig config,
            HttpSettings settings,
            ScopeResolver scope,
            MethodPolicyLookup policies,
            Instance<UnendedExecutions> guard,
            boolean servletApi) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.config = Objects.requireNonNull(config, "config");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.policies = Objects.requireNonNull(policies, "policies");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.servletApi = servletApi;
        this.problems = new ProblemResponses(settings.compatMode());
        this.headers = new StoredHeaders(settings.headersStored(), settings.headersNeverStored());
        if (settings.heartbeat() && !servletApi) {
            LOG.log(
                    Level.WARNING,
                    "idemkit.http.heartbeat=true has no effect in this application: it cannot see"
                            + " the Servlet API, so idemkit cannot see the end of every request (an"
                            + " asynchronous one, or one without a request context), and would"
                            + " renew the lease of a request it never saw end for as long as the"
                            + " server runs. Requests hold their keys for idemkit.lease-ttl: size"
                            + " it above your slowest request, or make the Servlet API visible to"
                            + " the application (on Open Liberty, a feature that brings it, such"
                            + " as servlet-6.0).");
        }
    }

    /**
     * Renews a claimed request's lease until its execution ends ({@code idemkit.http.heartbeat},
     * C4.7), where the end of every request is seen: with the Servlet API, whose request end
     * releases a claim nothing else ended (C6.7), so no beat outlives its request (an asynchronous
     * request that is never resumed ends at the container's async timeout). Without it, the lease
     * is the fallback, as for an unmapped exception there: a request whose end idemkit cannot see
     * (no request context, an asynchronous one) would otherwise be renewed forever. Flag only: a
     * container thread is never interrupted. When the heartbeat cannot start (it was closed at
     * undeploy), the request runs under its lease alone.
     */
    void keepAlive(Execution execution) {
        if (!settings.heartbeat() || !servletApi) {
            return;
        }
        try {
            execution.keepAliveUntilEnd(execution.keepAlive(false));
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit could not start the lease heartbeat of a request ("
                            + e.getMessage()
                            + "); it runs under its lease alone.");
        }
    }

    IdempotencyEngine engine() {
        return engine;
    }

    IdemkitConfig config() {
        return config;
    }

    HttpSettings settings() {
        return settings;
    }

    /**
     * @return the endpoint's policy: configuration, annotations and per-method keys, merged and
     *     validated at deployment, shared with the method surface
     */
    OperationPolicy policyOf(Endpoint endpoint) {
        return policies.policyFor(endpoint.resourceClass(), endpoint.method());
    }

    /**
     * @return the bean that takes the endpoint's key from its requests, the one its key policy
     *     names
     */
    IdempotencyKeyExtractor keyExtractorOf(Endpoint endpoint, String className) {
        return policies.keyExtractor(
                endpoint.resourceClass(), className, IdempotencyKeyExtractor.class);
    }

    ProblemResponses problems() {
        return problems;
    }

    StoredHeaders headers() {
        return headers;
    }

    /**
     * Makes sure the end of the request releases {@code exchange}'s claim if nothing else ended it
     * (C6.7): {@link ServletRequestEnd} does so for every request where the Servlet API is visible;
     * elsewhere the request-scoped {@link UnendedExecutions} tracks it.
     *
     * @throws jakarta.enterprise.context.ContextNotActiveException without a request context
     */
    void releaseAtRequestEnd(Exchange exchange) {
        if (!servletApi) {
            guard.get().track(exchange);
        }
    }

    /**
     * @return the current request's target as the Servlet API holds it, for a request whose target
     *     the JAX-RS runtime could not parse; empty where the application cannot see the Servlet
     *     API
     */
    Optional<RequestTarget> servletTarget() {
        return servletApi ? ServletRequestTarget.current() : Optional.empty();
    }

    /**
     * The scope of a request (contract C5): the application's {@code IdempotencyScopeProvider} when
     * there is one; with {@code idemkit.scope-source=principal}, the authenticated principal,
     * required; otherwise the authenticated principal when the request has one, and the
     * single-tenant scope (with its warning) when it has none.
     *
     * @throws IdempotencyScopeUnavailableException when a configured source yields nothing
     */
    String scopeOf(SecurityContext security) {
        if (config.scopeSource() == ScopeSource.PRINCIPAL) {
            return principalName(security)
                    .orElseThrow(
                            () ->
                                    new IdempotencyScopeUnavailableException(
                                            "idemkit.scope-source=principal, but the request has"
                                                    + " no authenticated principal; it was"
                                                    + " refused. Protect the endpoint with"
                                                    + " authentication."));
        }
        return scope.resolveFor(() -> principalName(security));
    }

    /**
     * @return {@code instant} as an IMF-fixdate, for {@code Idempotency-Key-Expires}
     */
    static String imfFixdate(Instant instant) {
        // Every response of a second carries the same date: format it once per second.
        FormattedSecond last = lastFormatted;
        long second = instant.getEpochSecond();
        if (last == null || last.epochSecond() != second) {
            last = new FormattedSecond(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second)));
            lastFormatted = last;
        }
        return last.text();
    }

    private static Optional<String> principalName(SecurityContext security) {
        return AuthenticatedName.of(security == null ? null : security.getUserPrincipal());
    }

    private record FormattedSecond(long epochSecond, String text) {}
}
