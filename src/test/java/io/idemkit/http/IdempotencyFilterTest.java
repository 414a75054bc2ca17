package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeMode;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.FakeSecurityContext;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The filter pair on a first request and its duplicates (C6): the first claims, runs and stores
 * what the client receives; a duplicate replays it (C6.2, C6.3, C6.8) or, while the first still
 * runs, answers in progress (C4.3, C6.4). Also the key's forms and rules (C6.1), payload mismatch
 * (C4.2, C6.9), the Stripe dialect (C6.4), and the scope that is part of the key (C5).
 */
class IdempotencyFilterTest extends IdempotencyFilterFixture {

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
    void pathTheReferenceCannotEncode_400MalformedQuery_notTheKey() {
        FakeRequest request = FakeRequest.of("POST", "orders").json(BODY);
        request.setRequestUri(URI.create("http://localhost/shop/api/orders\uD800"));

        Served served = filters().serve(request.header("Idempotency-Key", KEY), this::created);

        assertProblem(served, 400, "urn:idemkit:malformed-query");
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
}
