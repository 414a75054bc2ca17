package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.Idempotent;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.Ticker;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyKeyExtractor;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredHeader;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import io.idemkit.testsupport.OutageStore;
import io.idemkit.testsupport.SingleInstance;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterEach;

/**
 * What the filter pair's tests share: the filter pair of one {@code @Idempotent} resource method,
 * through hand-written JAX-RS contexts, on the real engine and the in-memory store (behind a store
 * that can be taken down) with a manual clock; a resource that counts its runs; and helpers to read
 * what the store holds and to check a problem response. Each test gets fresh ones, closed after it.
 */
abstract class IdempotencyFilterFixture {

    static final String PATH = "/shop/api/orders";
    static final String KEY = "order-7";
    static final String BODY = "{\"item\":\"book\",\"qty\":1}";
    static final String CREATED = "{\"id\":7}";
    static final Instant START = Instant.parse("2026-12-05T07:00:00Z");

    /** The resource class the filter pair is bound to. */
    static final class Orders {
        @Idempotent
        public void place() {}
    }

    final ManualClock clock = new ManualClock(START);
    final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore(clock, 100);
    final OutageStore outage = new OutageStore(memory);
    final IdempotencyEngine engine =
            new IdempotencyEngine(
                    outage.store(), event -> {}, new LeaseHeartbeat(false), Ticker.system());
    final AtomicInteger runs = new AtomicInteger();

    /** The application's request filters that run after idemkit's; none unless a test says. */
    LateRequestFilters lateFilters = LateRequestFilters.none();

    /** Whether the application sees the Servlet API; it does unless a test says. */
    boolean servletApi = true;

    /** The key extractor beans of the application, by class name. */
    final Map<String, IdempotencyKeyExtractor> extractors = new HashMap<>();

    @AfterEach
    void close() {
        engine.close();
        memory.close();
    }

    /** The filter pair with the given {@code idemkit.*} keys over the defaults. */
    JaxRsPipeline<IdempotencyFilter> filters(String... keyValues) {
        return filters(null, keyValues);
    }

    JaxRsPipeline<IdempotencyFilter> filters(ScopeResolver provider, String... keyValues) {
        Map<String, String> properties = new HashMap<>();
        properties.put("idemkit.store", "memory");
        properties.put("idemkit.scope-mode", "single-tenant");
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        Config source =
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build();
        IdemkitConfig config = ConfigReader.read(source);
        HttpSettings settings = HttpSettings.read(source);
        ScopeResolver scope =
                provider != null ? provider : ScopeResolver.singleTenant(config.scopeMode(), clock);
        MethodPolicyLookup policies =
                new MethodPolicyLookup() {
                    @Override
                    public OperationPolicy policyFor(Class<?> beanClass, Method method) {
                        return policyOf(config);
                    }

                    @Override
                    public boolean isJaxRsResourceMethod(Class<?> beanClass, Method method) {
                        return true;
                    }

                    @Override
                    public <T> T keyExtractor(
                            Class<?> resourceClass, String className, Class<T> spi) {
                        IdempotencyKeyExtractor bean = extractors.get(className);
                        if (bean == null) {
                            throw new IllegalStateException("no bean " + className);
                        }
                        return spi.cast(bean);
                    }
                };
        HttpSurface surface =
                new HttpSurface(
                        engine,
                        config,
                        settings,
                        scope,
                        policies,
                        new SingleInstance<>(UnendedExecutions::new),
                        servletApi);
        return new JaxRsPipeline<>(new IdempotencyFilter(endpoint(), () -> surface, lateFilters));
    }

    /** The resource method's policy; the configured defaults unless a test says otherwise. */
    OperationPolicy policyOf(IdemkitConfig config) {
        return config.defaults();
    }

    private static Endpoint endpoint() {
        try {
            Method place = Orders.class.getMethod("place");
            return new Endpoint(Orders.class, place, place.getAnnotation(Idempotent.class), null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    static FakeRequest post(String key, String body) {
        FakeRequest request = FakeRequest.of("POST", "orders").json(body);
        return key == null ? request : request.header("Idempotency-Key", key);
    }

    /** The resource: counts its runs and answers 201 with a body and a few headers. */
    FakeResponse created(FakeRequest request) {
        runs.incrementAndGet();
        return FakeResponse.of(201)
                .entity(CREATED, "application/json")
                .header("Location", "http://localhost/shop/api/orders/7")
                .header("Set-Cookie", "session=s3cr3t");
    }

    Function<FakeRequest, FakeResponse> answering(FakeResponse response) {
        return request -> {
            runs.incrementAndGet();
            return response;
        };
    }

    Optional<IdempotencyRecord> record(String key) {
        return memory.find(
                EffectiveKey.forHttp(key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", PATH));
    }

    static String header(IdempotencyRecord record, String name) {
        return record.result().headers().stream()
                .filter(h -> h.name().equalsIgnoreCase(name))
                .map(StoredHeader::value)
                .findFirst()
                .orElse(null);
    }

    static void assertProblem(Served served, int status, String type) {
        assertThat(served.status()).isEqualTo(status);
        assertThat(served.header("Content-Type")).startsWith("application/problem+json");
        assertThat(served.json().getString("type")).isEqualTo(type);
        assertThat(served.json().getInt("status")).isEqualTo(status);
        assertThat(served.text()).doesNotContain(KEY);
    }
}
