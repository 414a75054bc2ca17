package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeMode;
import io.idemkit.core.ScopeResolver;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeConfiguration;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Configuration;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Application request filters that run after idemkit's (C6.10): found in the JAX-RS configuration,
 * named in one warning, and under {@code scope-mode=strict} a reason to refuse every request, so
 * that no replay reaches a caller an authentication filter without {@code @Priority} never checked.
 */
class IdempotencyFilterLateFiltersTest extends IdempotencyFilterFixture {

    /** idemkit's request filter as placed before 0.1.0, after authorization. */
    private static final int LOWERED = 2100;

    /** An API-key check without {@code @Priority}: it runs at USER (5000), after idemkit's. */
    static final class ApiKeyFilter implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {}
    }

    /** The same check, placed where authentication belongs. */
    @Priority(Priorities.AUTHENTICATION)
    static final class AuthenticationFilter implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {}
    }

    /** Runs before matching, so before every post-matching filter whatever its priority. */
    @PreMatching
    static final class TenantRouting implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {}
    }

    /** An access log: runs after idemkit's, and checks nobody. */
    static final class AccessLog implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {}
    }

    private final CapturedLog log = CapturedLog.of(LateRequestFilters.class);

    @AfterEach
    void stopCapture() {
        log.close();
    }

    @Test
    void filterWithoutPriority_oneWarningNamesItWithItsPriorityAndTheFix() {
        lateFilters = scan(new FakeConfiguration().register(ApiKeyFilter.class));
        JaxRsPipeline<IdempotencyFilter> pipeline = filters();

        pipeline.serve(post(KEY, BODY), this::created);
        Served replay = pipeline.serve(post(KEY, BODY), this::created);

        assertThat(replay.status()).isEqualTo(201); // not strict: a warning, nothing refused
        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName() + " (priority 5000)")
                .contains("@Priority(Priorities.AUTHENTICATION)")
                .contains("idemkit.http.filters-after-idemkit");
    }

    @Test
    void strictWithFilterWithoutPriority_refusesEveryRequestAndReplaysNothing() {
        // The victim's request, stored while the order was still right.
        filters(scope(ScopeMode.WARN)).serve(post(KEY, BODY), this::created);
        lateFilters = scan(new FakeConfiguration().register(ApiKeyFilter.class));
        JaxRsPipeline<IdempotencyFilter> strict =
                filters(scope(ScopeMode.STRICT), "idemkit.scope-mode", "strict");

        Served sameBody = strict.serve(post(KEY, BODY), this::created);
        Served otherBody = strict.serve(post(KEY, "{\"item\":\"pen\"}"), this::created);
        Served newKey = strict.serve(post("order-8", BODY), this::created);
        Served keyless = strict.serve(post(null, BODY), this::created);

        for (Served refused : List.of(sameBody, otherBody, newKey, keyless)) {
            assertProblem(refused, 500, "urn:idemkit:filter-order");
            assertThat(refused.text()).doesNotContain(ApiKeyFilter.class.getSimpleName());
        }
        assertThat(runs).hasValue(1);
        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName())
                .contains("urn:idemkit:filter-order");
    }

    @Test
    void strictWithAcknowledgedFilter_servesAndWarnsNothing() {
        lateFilters = scan(new FakeConfiguration().register(AccessLog.class));
        JaxRsPipeline<IdempotencyFilter> strict =
                filters(
                        scope(ScopeMode.STRICT),
                        "idemkit.scope-mode",
                        "strict",
                        "idemkit.http.filters-after-idemkit",
                        "com.example.Cors, " + AccessLog.class.getName());

        assertThat(strict.serve(post(KEY, BODY), this::created).status()).isEqualTo(201);
        assertThat(strict.serve(post(KEY, BODY), this::created).header("Idempotency-Replayed"))
                .isEqualTo("true");
        assertThat(log.warnings()).isEmpty();
    }

    @Test
    void acknowledgingOneFilter_stillRefusesForTheOther() {
        lateFilters =
                scan(
                        new FakeConfiguration()
                                .register(AccessLog.class)
                                .register(ApiKeyFilter.class));
        JaxRsPipeline<IdempotencyFilter> strict =
                filters(
                        scope(ScopeMode.STRICT),
                        "idemkit.scope-mode",
                        "strict",
                        "idemkit.http.filters-after-idemkit",
                        AccessLog.class.getName());

        assertProblem(
                strict.serve(post(KEY, BODY), this::created), 500, "urn:idemkit:filter-order");
        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName())
                .doesNotContain(AccessLog.class.getName());
    }

    @Test
    void strictWithAuthenticationPriorityFilter_raisesNothing() {
        lateFilters = scan(new FakeConfiguration().register(AuthenticationFilter.class));

        assertServedUnderStrictWithoutWarning();
    }

    @Test
    void strictWithPreMatchingFilter_raisesNothing() {
        lateFilters = scan(new FakeConfiguration().register(TenantRouting.class));

        assertServedUnderStrictWithoutWarning();
    }

    @Test
    void strictWithResponseFilterContractOnly_raisesNothing() {
        // A class that is both, registered as a response filter only, filters no request.
        lateFilters =
                scan(
                        new FakeConfiguration()
                                .register(
                                        ApiKeyFilter.class,
                                        Map.of(ContainerResponseFilter.class, 5000)));

        assertServedUnderStrictWithoutWarning();
    }

    @Test
    void priorityRegisteredWithTheContract_winsOverTheAnnotation() {
        lateFilters =
                scan(
                        new FakeConfiguration()
                                .register(
                                        AuthenticationFilter.class,
                                        Map.of(ContainerRequestFilter.class, 6000))
                                .register(
                                        ApiKeyFilter.class,
                                        Map.of(
                                                ContainerRequestFilter.class,
                                                Priorities.AUTHENTICATION)));
        filters().serve(post(KEY, BODY), this::created);

        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(AuthenticationFilter.class.getName() + " (priority 6000)")
                .doesNotContain(ApiKeyFilter.class.getName());
    }

    @Test
    void jerseysNoPriority_fallsBackToTheDefault() {
        lateFilters =
                scan(
                        new FakeConfiguration()
                                .register(
                                        ApiKeyFilter.class,
                                        Map.of(ContainerRequestFilter.class, -1)));
        filters().serve(post(KEY, BODY), this::created);

        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName() + " (priority 5000)");
    }

    @Test
    void registeredInstance_isFoundToo() {
        lateFilters = scan(new FakeConfiguration().registerInstance(new ApiKeyFilter()));
        filters().serve(post(KEY, BODY), this::created);

        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName());
    }

    /**
     * By default idemkit's request filter runs last: a filter without {@code @Priority} runs before
     * it, sees every duplicate, and can reject it; nothing is warned of or refused.
     */
    @Test
    void byDefault_aFilterWithoutPriorityRunsBeforeIdemkits_andNothingIsRefused() {
        lateFilters =
                LateRequestFilters.scan(
                        List.of(new FakeConfiguration().register(ApiKeyFilter.class)),
                        getClass().getClassLoader(),
                        HttpRequestFilterPriority.parse(HttpKeys.REQUEST_FILTER_PRIORITY_DEFAULT));

        assertServedUnderStrictWithoutWarning();
    }

    @Test
    void idemkitsOwnAndTheRuntimesFilters_raiseNothing() throws IOException {
        // The runtime's classes are not defined by the application's loader nor by its parents
        // (RESTEasy's SseEventSinkInterceptor runs at Integer.MAX_VALUE on Open Liberty).
        Class<?> runtimes = definedOutsideTheApplication(AccessLog.class);
        lateFilters =
                scan(
                        new FakeConfiguration()
                                .register(runtimes)
                                .register(
                                        IdempotencyFilter.class,
                                        Map.of(ContainerRequestFilter.class, LOWERED)));

        assertServedUnderStrictWithoutWarning();
    }

    @Test
    void aFilterSeenInOneViewOnly_isFound() {
        // Jersey lists the application's providers in the injected Configuration only.
        lateFilters =
                LateRequestFilters.scan(
                        List.of(
                                new FakeConfiguration(),
                                new FakeConfiguration().register(ApiKeyFilter.class)),
                        getClass().getClassLoader(),
                        LOWERED);
        filters().serve(post(KEY, BODY), this::created);

        assertThat(log.warnings())
                .singleElement()
                .asString()
                .contains(ApiKeyFilter.class.getName());
    }

    private void assertServedUnderStrictWithoutWarning() {
        JaxRsPipeline<IdempotencyFilter> strict =
                filters(scope(ScopeMode.STRICT), "idemkit.scope-mode", "strict");

        assertThat(strict.serve(post(KEY, BODY), this::created).status()).isEqualTo(201);
        assertThat(log.warnings()).isEmpty();
    }

    /**
     * Scans with idemkit's request filter placed as before 0.1.0, {@code
     * idemkit.http.request-filter-priority=2100}: after authorization, before {@code USER}.
     */
    private LateRequestFilters scan(Configuration configuration) {
        return LateRequestFilters.scan(
                List.of(configuration), getClass().getClassLoader(), LOWERED);
    }

    private ScopeResolver scope(ScopeMode mode) {
        return ScopeResolver.of(() -> Optional.of("tenant-A"), "the test provider", mode, clock);
    }

    /**
     * A copy of {@code type} defined by a loader that is a child of the application's, not a
     * parent.
     */
    private static Class<?> definedOutsideTheApplication(Class<?> type) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        byte[] bytes;
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            bytes = in.readAllBytes();
        }
        class RuntimeLoader extends ClassLoader {
            RuntimeLoader() {
                super(type.getClassLoader());
            }

            Class<?> define() {
                return defineClass(type.getName(), bytes, 0, bytes.length);
            }
        }
        return new RuntimeLoader().define();
    }
}
