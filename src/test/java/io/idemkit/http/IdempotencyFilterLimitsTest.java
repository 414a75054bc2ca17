package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.spi.RecordState;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import jakarta.ws.rs.core.StreamingOutput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The filter pair's limits: a streaming response and a body over {@code max-body-bytes} reach the
 * client whole but are not stored, and say why (C6.5); a request over {@code max-request-bytes}
 * bypasses idempotency (C6.9); the opt-in {@code idemkit.http.heartbeat} renews the lease while the
 * resource runs, and until the response is stored.
 */
class IdempotencyFilterLimitsTest extends IdempotencyFilterFixture {

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
    void httpHeartbeat_goesOnWhileTheBodyIsWritten_untilTheResponseIsStored() {
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.http.heartbeat", "true", "idemkit.lease-ttl", "3s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);
        FakeResponse response = created(request);
        // The resource has returned; its entity is still to be written, to a slow client say.
        filters.responseFilter(request, response);

        clock.advance(Duration.ofSeconds(2));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> record(KEY).orElseThrow().leaseUntil(), START.plusSeconds(5)::equals);
        assertThat(filters.write(request, response).text()).isEqualTo(CREATED);
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }
}
