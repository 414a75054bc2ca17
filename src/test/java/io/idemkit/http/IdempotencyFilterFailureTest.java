package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.spi.RecordState;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The filter pair when there is no result to store: a failed response releases the claim so the
 * retry runs (C4.4, C6.7), unless {@code cacheable-status} names its status; a writer that fails
 * mid-body holds the claim, and the lease decides; a store that is down refuses with 503 (C6.4) or,
 * under {@code fail-open}, lets the request run unprotected (C4.6); a response to a request the
 * filter never saw is left alone.
 */
class IdempotencyFilterFailureTest extends IdempotencyFilterFixture {

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
