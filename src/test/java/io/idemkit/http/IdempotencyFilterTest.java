package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.Idempotent;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.Ticker;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.FakeSecurityContext;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import io.idemkit.testsupport.OutageStore;
import io.idemkit.testsupport.SingleInstance;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The filter pair of one {@code @Idempotent} resource method (C6), through hand-written JAX-RS
 * contexts, on the real engine and the in-memory store: what the client receives, and what the
 * store holds afterwards.
 */
class IdempotencyFilterTest {

    private static final String PATH = "/shop/api/orders";
    private static final String KEY = "order-7";
    private static final String BODY = "{\"item\":\"book\",\"qty\":1}";
    private static final String CREATED = "{\"id\":7}";
    private static final Instant START = Instant.parse("2026-12-05T07:00:00Z");

    /** The resource class the filter pair is bound to. */
    static final class Orders {
        @Idempotent
        public void place() {}
    }

    private final ManualClock clock = new ManualClock(START);
    private final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore(clock, 100);
    private final OutageStore outage = new OutageStore(memory);
    private final IdempotencyEngine engine =
            new IdempotencyEngine(
                    outage.store(), event -> {}, new LeaseHeartbeat(false), Ticker.system());
    private final AtomicInteger runs = new AtomicInteger();

    @AfterEach
    void close() {
        engine.close();
        memory.close();
    }

    /** The filter pair with the given {@code idemkit.*} keys over the defaults. */
    private JaxRsPipeline<IdempotencyFilter> filters(String... keyValues) {
        return filters(null, keyValues);
    }

    private JaxRsPipeline<IdempotencyFilter> filters(ScopeResolver provider, String... keyValues) {
        Map<String, String> properties = new HashMap<>();
        properties.put("idemkit.store", "memory");
        properties.put("idemkit.scope-mode", "single-tenant");
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        IdemkitConfig config =
                ConfigReader.read(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(properties, "test", 500))
                                .build());
        ScopeResolver scope =
                provider != null ? provider : ScopeResolver.singleTenant(config.scopeMode(), clock);
        MethodPolicyLookup policies =
                new MethodPolicyLookup() {
                    @Override
                    public OperationPolicy policyFor(Class<?> beanClass, Method method) {
                        return config.defaults();
                    }

                    @Override
                    public boolean isJaxRsResourceMethod(Class<?> beanClass, Method method) {
                        return true;
                    }
                };
        HttpSurface surface =
                new HttpSurface(
                        engine,
                        config,
                        scope,
                        policies,
                        new SingleInstance<>(UnendedExecutions::new));
        return new JaxRsPipeline<>(new IdempotencyFilter(endpoint(), () -> surface));
    }

    private static Endpoint endpoint() {
        try {
            Method place = Orders.class.getMethod("place");
            return new Endpoint(Orders.class, place, place.getAnnotation(Idempotent.class), null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static FakeRequest post(String key, String body) {
        FakeRequest request = FakeRequest.of("POST", "orders").json(body);
        return key == null ? request : request.header("Idempotency-Key", key);
    }

    /** The resource: counts its runs and answers 201 with a body and a few headers. */
    private FakeResponse created(FakeRequest request) {
        runs.incrementAndGet();
        return FakeResponse.of(201)
                .entity(CREATED, "application/json")
                .header("Location", "http://localhost/shop/api/orders/7")
                .header("Set-Cookie", "session=s3cr3t");
    }

    private Function<FakeRequest, FakeResponse> answering(FakeResponse response) {
        return request -> {
            runs.incrementAndGet();
            return response;
        };
    }

    private Optional<IdempotencyRecord> record(String key) {
        return memory.find(
                EffectiveKey.forHttp(key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", PATH));
    }

    private static String header(IdempotencyRecord record, String name) {
        return record.result().headers().stream()
                .filter(h -> h.name().equalsIgnoreCase(name))
                .map(StoredHeader::value)
                .findFirst()
                .orElse(null);
    }

    private static void assertProblem(Served served, int status, String type) {
        assertThat(served.status()).isEqualTo(status);
        assertThat(served.header("Content-Type")).startsWith("application/problem+json");
        assertThat(served.json().getString("type")).isEqualTo(type);
        assertThat(served.json().getInt("status")).isEqualTo(status);
        assertThat(served.text()).doesNotContain(KEY);
    }

    @Test
    void firstRequest_claimsRunsAndStoresWhatTheClientReceives() {
        Served first = filters().serve(post(KEY, BODY), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text()).isEqualTo(CREATED);
        assertThat(first.header("Idempotency-Replayed")).isNull();
        // completed-ttl defaults to 24h, on the store's clock.
        assertThat(first.header("Idempotency-Key-Expires"))
                .isEqualTo("Sun, 06 Dec 2026 07:00:00 GMT");
        IdempotencyRecord stored = record(KEY).orElseThrow();
        assertThat(stored.state()).isEqualTo(RecordState.COMPLETED);
        assertThat(stored.result().status()).isEqualTo(201);
        assertThat(stored.result().body()).isEqualTo(CREATED.getBytes(StandardCharsets.UTF_8));
        assertThat(header(stored, "Location")).isEqualTo("http://localhost/shop/api/orders/7");
        assertThat(header(stored, "Content-Type")).isEqualTo("application/json");
        assertThat(header(stored, "Set-Cookie")).isNull();
        assertThat(runs).hasValue(1);
    }

    @Test
    void claimedRequest_reachesTheResourceWithItsBodyWhole() {
        FakeRequest request = post(KEY, BODY);

        assertThat(filters().request(request)).isTrue();

        assertThat(request.readEntity()).isEqualTo(BODY.getBytes(StandardCharsets.UTF_8));
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void duplicate_replaysTheStoredResponse_withTheReplayHeader_withoutRunningAgain() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        filters.serve(post(KEY, BODY), this::created);
        clock.advance(Duration.ofMinutes(5));

        Served replay = filters.serve(post(KEY, BODY), this::created);

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.text()).isEqualTo(CREATED);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.header("Location")).isEqualTo("http://localhost/shop/api/orders/7");
        assertThat(replay.header("Content-Type")).isEqualTo("application/json");
        assertThat(replay.header("Set-Cookie")).isNull();
        // The stored expiry, not a new one.
        assertThat(replay.header("Idempotency-Key-Expires"))
                .isEqualTo("Sun, 06 Dec 2026 07:00:00 GMT");
        assertThat(runs).hasValue(1);
    }

    @Test
    void quotedAndBareKey_areTheSameKey() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        filters.serve(post(KEY, BODY), this::created);

        Served replay = filters.serve(post("\"" + KEY + "\"", BODY), this::created);

        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void stripeDialect_spellsTheReplayHeaderIdempotentReplayed() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.compat-mode", "stripe");
        filters.serve(post(KEY, BODY), this::created);

        Served replay = filters.serve(post(KEY, BODY), this::created);

        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replay.header("Idempotency-Replayed")).isNull();
    }

    @Test
    void emptyBodyResponse_isStored_andReplayedWithoutABody() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        FakeResponse noContent = FakeResponse.of(204).header("ETag", "\"v2\"");
        Served first = filters.serve(post(KEY, BODY), answering(noContent));

        Served replay = filters.serve(post(KEY, BODY), answering(FakeResponse.of(204)));

        assertThat(first.status()).isEqualTo(204);
        assertThat(first.header("Idempotency-Key-Expires")).isNotNull();
        assertThat(replay.status()).isEqualTo(204);
        assertThat(replay.body()).isEmpty();
        assertThat(replay.header("ETag")).isEqualTo("\"v2\"");
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void contentTypeTheRuntimeChose_isStoredAlthoughNoHeaderCarriesIt() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        FakeResponse response = FakeResponse.of(200).negotiated(CREATED, "application/json");

        filters.serve(post(KEY, BODY), answering(response));

        assertThat(header(record(KEY).orElseThrow(), "Content-Type")).isEqualTo("application/json");
    }

    @Test
    void noKey_runsUnprotected_andNothingIsStored() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served first = filters.serve(post(null, BODY), this::created);
        Served second = filters.serve(post(null, BODY), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.header("Idempotency-Replayed")).isNull();
        assertThat(second.header("Idempotency-Key-Expires")).isNull();
        assertThat(runs).hasValue(2);
        assertThat(memory.size()).isZero();
    }

    @Test
    void noKey_whenKeysAreRequired_400ForAMutatingMethod_butAGetPasses() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.require-key", "true");

        Served post = filters.serve(post(null, BODY), this::created);
        Served get = filters.serve(FakeRequest.of("GET", "orders"), this::created);

        assertProblem(post, 400, "urn:idemkit:missing-key");
        assertThat(post.json().getString("detail")).contains("idemkit.require-key=true");
        assertThat(get.status()).isEqualTo(201);
        assertThat(runs).hasValue(1);
    }

    @Test
    void malformedKeys_400MissingKey_andTheResourceDoesNotRun() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served empty = filters.serve(post("", BODY), this::created);
        Served tooLong = filters.serve(post("k".repeat(256), BODY), this::created);
        Served control = filters.serve(post("a\u0001b", BODY), this::created);
        Served unterminated = filters.serve(post("\"abc", BODY), this::created);
        Served twice =
                filters.serve(post(KEY, BODY).header("Idempotency-Key", "other"), this::created);

        for (Served refused : new Served[] {empty, tooLong, control, unterminated, twice}) {
            assertProblem(refused, 400, "urn:idemkit:missing-key");
        }
        assertThat(twice.json().getString("detail")).contains("2 times");
        assertThat(runs).hasValue(0);
        assertThat(memory.size()).isZero();
    }

    @Test
    void longestKey_255Bytes_isAccepted() {
        Served served = filters().serve(post("k".repeat(255), BODY), this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(record("k".repeat(255))).isPresent();
    }

    @Test
    void pathTheReferenceCannotEncode_400() {
        FakeRequest request = FakeRequest.of("POST", "orders").json(BODY);
        request.setRequestUri(URI.create("http://localhost/shop/api/orders\uD800"));

        Served served = filters().serve(request.header("Idempotency-Key", KEY), this::created);

        assertProblem(served, 400, "urn:idemkit:missing-key");
        assertThat(runs).hasValue(0);
    }

    @Test
    void sameKeyOtherPayload_422PayloadMismatch() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        filters.serve(post(KEY, BODY), this::created);

        Served mismatch = filters.serve(post(KEY, "{\"item\":\"pen\",\"qty\":1}"), this::created);

        assertProblem(mismatch, 422, "urn:idemkit:payload-mismatch");
        assertThat(runs).hasValue(1);
    }

    @Test
    void sameKeyOtherQuery_isAnotherPayload() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        filters.serve(post(KEY, BODY), this::created);
        FakeRequest withQuery =
                FakeRequest.of("POST", "orders?express=true")
                        .json(BODY)
                        .header("Idempotency-Key", KEY);

        assertProblem(filters.serve(withQuery, this::created), 422, "urn:idemkit:payload-mismatch");
    }

    @Test
    void sameJsonOtherWhitespaceAndKeyOrder_isTheSamePayload() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        filters.serve(post(KEY, BODY), this::created);

        Served replay =
                filters.serve(post(KEY, "{ \"qty\": 1, \"item\": \"book\" }"), this::created);

        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
    }

    @Test
    void payloadMismatch_inTheStripeDialect_409() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.compat-mode", "stripe");
        filters.serve(post(KEY, BODY), this::created);

        Served mismatch = filters.serve(post(KEY, "{}"), this::created);

        assertProblem(mismatch, 409, "urn:idemkit:payload-mismatch");
    }

    @Test
    void duplicateWhileTheFirstRuns_423InProgress_withRetryAfter() {
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.wait-timeout", "0s", "idemkit.lease-ttl", "30s");
        FakeRequest first = post(KEY, BODY);
        assertThat(filters.request(first)).isTrue();

        Served duplicate = filters.serve(post(KEY, BODY), this::created);

        assertProblem(duplicate, 423, "urn:idemkit:in-progress");
        assertThat(duplicate.header("Retry-After")).isEqualTo("30");
        assertThat(runs).hasValue(0);

        // The first one finishes, and from then on a duplicate replays it.
        filters.respond(first, created(first));
        assertThat(filters.serve(post(KEY, BODY), this::created).header("Idempotency-Replayed"))
                .isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void duplicateWhileTheFirstRuns_inTheStripeDialect_409() {
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.wait-timeout", "0s", "idemkit.compat-mode", "stripe");
        filters.request(post(KEY, BODY));

        assertProblem(
                filters.serve(post(KEY, BODY), this::created), 409, "urn:idemkit:in-progress");
    }

    @Test
    void failedResponse_releasesTheClaim_soTheRetryRuns() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        FakeResponse failure =
                FakeResponse.of(500).entity("{\"error\":\"db\"}", "application/json");

        Served failed = filters.serve(post(KEY, BODY), answering(failure));

        assertThat(failed.status()).isEqualTo(500);
        assertThat(failed.text()).isEqualTo("{\"error\":\"db\"}");
        assertThat(failed.header("Idempotency-Key-Expires")).isNull();
        assertThat(record(KEY)).isEmpty();

        Served retry = filters.serve(post(KEY, BODY), this::created);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Idempotency-Replayed")).isNull();
        assertThat(runs).hasValue(2);
    }

    @Test
    void failedResponseWithoutABody_releasesTheClaim() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served failed = filters.serve(post(KEY, BODY), answering(FakeResponse.of(503)));

        assertThat(failed.status()).isEqualTo(503);
        assertThat(failed.header("Idempotency-Key-Expires")).isNull();
        assertThat(record(KEY)).isEmpty();
    }

    @Test
    void cacheableStatusSetting_storesWhatItNames() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.cacheable-status", "2xx,4xx");
        FakeResponse refused =
                FakeResponse.of(409).entity("{\"error\":\"sold out\"}", "application/json");
        filters.serve(post(KEY, BODY), answering(refused));

        Served replay = filters.serve(post(KEY, BODY), this::created);

        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void streamingResponse_isNotStored_saysWhy_andReleases() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        StreamingOutput stream = out -> out.write("chunk".getBytes(StandardCharsets.UTF_8));

        Served streamed =
                filters.serve(
                        post(KEY, BODY),
                        answering(FakeResponse.of(200).entity(stream, "text/plain")));

        assertThat(streamed.text()).isEqualTo("chunk");
        assertThat(streamed.header("Idempotency-Replay-Unavailable")).isEqualTo("streaming");
        assertThat(record(KEY)).isEmpty();
    }

    @Test
    void serverSentEvents_areNotStored() {
        Served events =
                filters()
                        .serve(
                                post(KEY, BODY),
                                answering(
                                        FakeResponse.of(200)
                                                .entity("data: 1\n\n", "text/event-stream")));

        assertThat(events.header("Idempotency-Replay-Unavailable")).isEqualTo("streaming");
        assertThat(record(KEY)).isEmpty();
    }

    @Test
    void bodyOverMaxBodyBytes_reachesTheClientWhole_butIsNotStored() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.max-body-bytes", "4");

        Served big = filters.serve(post(KEY, BODY), this::created);

        assertThat(big.text()).isEqualTo(CREATED);
        assertThat(big.header("Idempotency-Replay-Unavailable")).isEqualTo("size-exceeded");
        assertThat(big.header("Idempotency-Key-Expires")).isNull();
        assertThat(record(KEY)).isEmpty();
        // Released: the retry runs again.
        filters.serve(post(KEY, BODY), this::created);
        assertThat(runs).hasValue(2);
    }

    @Test
    void requestOverMaxRequestBytes_bypassesIdempotency_andSaysSo() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.max-request-bytes", "8");
        FakeRequest request = post(KEY, BODY);

        Served served = filters.serve(request, this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(served.header("Idempotency-Replay-Unavailable")).isEqualTo("request-too-large");
        assertThat(memory.size()).isZero();
        // The resource still reads the whole body.
        FakeRequest again = post(KEY, BODY);
        filters.request(again);
        assertThat(again.readEntity()).isEqualTo(BODY.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void writerFailsMidBody_holdsTheClaim_soAnImmediateRetryDoesNotRunAgain() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.wait-timeout", "0s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);

        assertThatThrownBy(() -> filters.respondFailing(request, created(request), 3))
                .isInstanceOf(IOException.class);

        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        assertProblem(
                filters.serve(post(KEY, BODY), this::created), 423, "urn:idemkit:in-progress");
        // The runtime then answers with an error response: it is not the result.
        Served error = filters.respond(request, FakeResponse.of(500));
        assertThat(error.header("Idempotency-Key-Expires")).isNull();
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        // The lease decides when a retry may run.
        clock.advance(Duration.ofSeconds(31));
        assertThat(filters.serve(post(KEY, BODY), this::created).status()).isEqualTo(201);
        assertThat(runs).hasValue(2);
    }

    @Test
    void storeDown_503StorageError_withRetryAfter_andTheResourceDoesNotRun() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        outage.goDown();

        Served refused = filters.serve(post(KEY, BODY), this::created);

        assertProblem(refused, 503, "urn:idemkit:storage-error");
        assertThat(refused.header("Retry-After")).isEqualTo("5");
        assertThat(refused.text()).doesNotContain("10.1.2.3");
        assertThat(runs).hasValue(0);
    }

    @Test
    void storeDown_failOpen_runsUnprotected() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.on-storage-error", "fail-open");
        outage.goDown();

        Served served = filters.serve(post(KEY, BODY), this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(served.header("Idempotency-Key-Expires")).isNull();
        assertThat(runs).hasValue(1);
        outage.comeBack();
        assertThat(memory.size()).isZero();
    }

    @Test
    void storeDownWhenTheResultIsStored_theClientStillGetsIt_andTheClaimIsHeld() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.wait-timeout", "0s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);
        outage.goDown();

        Served served = filters.respond(request, created(request));

        assertThat(served.status()).isEqualTo(201);
        assertThat(served.text()).isEqualTo(CREATED);
        // The expiry is advisory: without the store's clock it is left out.
        assertThat(served.header("Idempotency-Key-Expires")).isNull();
        outage.comeBack();
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void principal_scopesTheKey_soTwoCallersWithOneKeyBothRun() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served a =
                filters.serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("tenant-A")), this::created);
        Served b =
                filters.serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("tenant-B")), this::created);
        Served aAgain =
                filters.serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("tenant-A")), this::created);

        assertThat(a.header("Idempotency-Replayed")).isNull();
        assertThat(b.header("Idempotency-Replayed")).isNull();
        assertThat(aAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(2);
        assertThat(memory.find(EffectiveKey.forHttp(KEY, "tenant-A", "POST", PATH))).isPresent();
    }

    @Test
    void libertysUnauthenticatedPrincipal_isTheSingleTenantScope() {
        filters()
                .serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("UNAUTHENTICATED")),
                        this::created);

        assertThat(record(KEY)).isPresent();
    }

    @Test
    void scopeSourcePrincipal_withoutAnAuthenticatedCaller_500IdentityUnavailable() {
        JaxRsPipeline<IdempotencyFilter> filters = filters("idemkit.scope-source", "principal");

        Served none = filters.serve(post(KEY, BODY), this::created);
        Served liberty =
                filters.serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("UNAUTHENTICATED")),
                        this::created);
        Served blank =
                filters.serve(post(KEY, BODY).caller(FakeSecurityContext.of(" ")), this::created);
        Served named =
                filters.serve(
                        post(KEY, BODY).caller(FakeSecurityContext.of("tenant-A")), this::created);

        for (Served refused : new Served[] {none, liberty, blank}) {
            assertProblem(refused, 500, "urn:idemkit:identity-unavailable");
        }
        assertThat(named.status()).isEqualTo(201);
        assertThat(runs).hasValue(1);
    }

    @Test
    void scopeProvider_scopesTheKey_andOneThatYieldsNothingFailsClosed() {
        ScopeResolver tenant9 =
                ScopeResolver.of(
                        () -> Optional.of("tenant-9"), "the test provider", ScopeMode.WARN, clock);
        filters(tenant9).serve(post(KEY, BODY), this::created);
        assertThat(memory.find(EffectiveKey.forHttp(KEY, "tenant-9", "POST", PATH))).isPresent();

        ScopeResolver nobody =
                ScopeResolver.of(Optional::empty, "the test provider", ScopeMode.WARN, clock);
        Served refused = filters(nobody).serve(post("other", BODY), this::created);

        assertProblem(refused, 500, "urn:idemkit:identity-unavailable");
        assertThat(runs).hasValue(1);
    }

    @Test
    void httpHeartbeat_renewsTheLeaseWhileTheResourceRuns() {
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.http.heartbeat", "true", "idemkit.lease-ttl", "3s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);

        clock.advance(Duration.ofSeconds(2));

        // A beat every third of the lease renews it from the store's clock.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> record(KEY).orElseThrow().leaseUntil(), START.plusSeconds(5)::equals);
        filters.respond(request, created(request));
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }

    @Test
    void responseOfARequestTheFilterNeverSaw_isLeftAlone() {
        JaxRsPipeline<IdempotencyFilter> filters = filters();
        FakeRequest request = post(KEY, BODY);

        Served served = filters.respond(request, created(request));

        assertThat(served.status()).isEqualTo(201);
        assertThat(served.text()).isEqualTo(CREATED);
        assertThat(served.header("Idempotency-Key-Expires")).isNull();
        assertThat(memory.size()).isZero();
    }
}
