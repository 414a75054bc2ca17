package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyException;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyResultNotStorableException;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import jakarta.annotation.Priority;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.io.ByteArrayInputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The exception mappers of the method surface called from JAX-RS (C7.5, C6.4). */
class ProblemMappersTest {

    private static final Supplier<ProblemResponses> STANDARD =
            () -> new ProblemResponses(CompatMode.NONE);
    private static final Supplier<ProblemResponses> STRIPE =
            () -> new ProblemResponses(CompatMode.STRIPE);

    private static final String SECRET = "key-4711 payload {\"card\":\"4242\"}";

    @Test
    void inProgress_answers423WithRetryAfterRoundedUp() {
        Response r =
                new ProblemMappers.InProgress(STANDARD)
                        .toResponse(new IdempotencyInProgressException(Duration.ofMillis(1500)));

        assertProblem(r, 423, "urn:idemkit:in-progress");
        assertThat(r.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(detail(r)).contains("Retry after Retry-After seconds");
    }

    @Test
    void inProgressWithNoLeaseLeft_stillSaysRetryAfterOneSecond() {
        Response r =
                new ProblemMappers.InProgress(STANDARD)
                        .toResponse(new IdempotencyInProgressException(Duration.ZERO));

        assertThat(r.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    }

    @Test
    void inProgressInStripeDialect_answers409WithRetryAfter() {
        Response r =
                new ProblemMappers.InProgress(STRIPE)
                        .toResponse(new IdempotencyInProgressException(Duration.ofSeconds(7)));

        assertProblem(r, 409, "urn:idemkit:in-progress");
        assertThat(r.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("7");
    }

    @Test
    void payloadMismatch_answers422AndSaysUseANewKey() {
        Response r =
                new ProblemMappers.PayloadMismatch(STANDARD)
                        .toResponse(new IdempotencyPayloadMismatchException());

        assertProblem(r, 422, "urn:idemkit:payload-mismatch");
        assertThat(detail(r)).contains("use a new key");
        assertThat(r.getHeaderString(HttpHeaders.RETRY_AFTER)).isNull();
    }

    @Test
    void payloadMismatchInStripeDialect_answers409() {
        Response r =
                new ProblemMappers.PayloadMismatch(STRIPE)
                        .toResponse(new IdempotencyPayloadMismatchException());

        assertProblem(r, 409, "urn:idemkit:payload-mismatch");
    }

    @Test
    void storageFailure_answers503WithRetryAfterInBothDialects() {
        for (Supplier<ProblemResponses> dialect : List.of(STANDARD, STRIPE)) {
            Response r =
                    new ProblemMappers.Storage(dialect)
                            .toResponse(
                                    new IdempotencyStorageException(
                                            "mongo at 10.0.0.7:27017 refused: " + SECRET));

            assertProblem(r, 503, "urn:idemkit:storage-error");
            assertThat(r.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("5");
            assertThat(body(r)).doesNotContain("10.0.0.7").doesNotContain("4242");
        }
    }

    @Test
    void keyMissing_answers400WithoutTheMethodName() {
        Response r =
                new ProblemMappers.KeyMissing(STRIPE)
                        .toResponse(
                                new IdempotencyKeyMissingException(
                                        "com.acme.Payments.pay(String) got a null key " + SECRET));

        assertProblem(r, 400, "urn:idemkit:missing-key");
        assertThat(detail(r)).isEqualTo(ProblemMappers.KeyMissing.DETAIL);
    }

    @Test
    void resultNotStorable_answers500ProblemThatSaysTheOperationRan() {
        Response r =
                new ProblemMappers.ResultNotStorable(STANDARD)
                        .toResponse(
                                new IdempotencyResultNotStorableException(
                                        "no JSON-B for com.acme.Secret " + SECRET,
                                        Duration.ofSeconds(30),
                                        new IllegalStateException(SECRET)));

        assertProblem(r, 500, "urn:idemkit:result-not-storable");
        assertThat(detail(r)).contains("The operation ran");
    }

    @Test
    void scopeUnavailable_answers500IdentityUnavailable() {
        Response r =
                new ProblemMappers.ScopeUnavailable(STRIPE)
                        .toResponse(new IdempotencyScopeUnavailableException("no principal"));

        assertProblem(r, 500, "urn:idemkit:identity-unavailable");
    }

    @Test
    void everyMapper_mapsItsExactTypeAtAPriorityTheApplicationDefaultBeats() {
        assertThat(ProblemMappers.PRIORITY).isGreaterThan(Priorities.USER);
        Map<Object, Integer> registered = configure(RuntimeType.SERVER);

        assertThat(registered.values()).containsOnly(ProblemMappers.PRIORITY);
        assertThat(registered.keySet().stream().map(ProblemMappersTest::mappedType))
                .containsExactlyInAnyOrder(
                        IdempotencyInProgressException.class,
                        IdempotencyPayloadMismatchException.class,
                        IdempotencyStorageException.class,
                        IdempotencyKeyMissingException.class,
                        IdempotencyResultNotStorableException.class,
                        IdempotencyScopeUnavailableException.class);
        for (Object mapper : registered.keySet()) {
            assertThat(mapper.getClass().getAnnotation(Priority.class).value())
                    .isEqualTo(ProblemMappers.PRIORITY);
            assertThat(mappedType(mapper)).isNotEqualTo(IdempotencyException.class);
        }
    }

    @Test
    void onAClient_registersNothing() {
        assertThat(configure(RuntimeType.CLIENT)).isEmpty();
    }

    private static Class<?> mappedType(Object mapper) {
        for (var type : mapper.getClass().getGenericInterfaces()) {
            if (type instanceof ParameterizedType p && p.getRawType() == ExceptionMapper.class) {
                return (Class<?>) p.getActualTypeArguments()[0];
            }
        }
        throw new AssertionError(mapper + " is no ExceptionMapper");
    }

    /** Runs the feature against a context that records what it registers, with which priority. */
    private static Map<Object, Integer> configure(RuntimeType runtime) {
        Map<Object, Integer> registered = new LinkedHashMap<>();
        Configuration configuration =
                (Configuration)
                        Proxy.newProxyInstance(
                                Configuration.class.getClassLoader(),
                                new Class<?>[] {Configuration.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("getRuntimeType")) {
                                        return runtime;
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
        FeatureContext context =
                (FeatureContext)
                        Proxy.newProxyInstance(
                                FeatureContext.class.getClassLoader(),
                                new Class<?>[] {FeatureContext.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("getConfiguration")) {
                                        return configuration;
                                    }
                                    if (method.getName().equals("register")
                                            && args.length == 2
                                            && args[1] instanceof Integer priority) {
                                        registered.put(args[0], priority);
                                        return proxy;
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
        boolean enabled = new io.idemkit.rest.IdempotencyExceptionMappers().configure(context);
        assertThat(enabled).isEqualTo(runtime == RuntimeType.SERVER);
        return registered;
    }

    private static void assertProblem(Response r, int status, String type) {
        assertThat(r.getStatus()).isEqualTo(status);
        assertThat(r.getMediaType()).hasToString(ProblemResponses.PROBLEM_JSON);
        JsonObject json = json(r);
        assertThat(json.getString("type")).isEqualTo(type);
        assertThat(json.getInt("status")).isEqualTo(status);
        assertThat(json.getString("title")).isNotBlank();
        String body = body(r);
        assertThat(body)
                .doesNotContain("key-4711")
                .doesNotContain("4242")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    private static String detail(Response r) {
        return json(r).getString("detail");
    }

    private static JsonObject json(Response r) {
        return Json.createReader(new ByteArrayInputStream((byte[]) r.getEntity())).readObject();
    }

    private static String body(Response r) {
        return new String((byte[]) r.getEntity(), java.nio.charset.StandardCharsets.UTF_8);
    }
}
