package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.spi.RecordState;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.JaxRsPipeline;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code idemkit.http.heartbeat} is bounded by the request's end (C4.7, C6.7): it renews only where
 * the end of every request is seen, through the Servlet API. Where the application cannot see it, a
 * request whose end idemkit never sees (no request context, an asynchronous one never resumed)
 * would be renewed for as long as the server runs; there the lease is the fallback.
 */
class IdempotencyFilterHeartbeatTest extends IdempotencyFilterFixture {

    @Test
    void withoutTheServletApi_theHeartbeatRenewsNothing_andTheLeaseIsTheFallback() {
        servletApi = false;
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.http.heartbeat", "true", "idemkit.lease-ttl", "3s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);

        clock.advance(Duration.ofSeconds(2));

        // A beat every second would have renewed the lease from the store's clock by now.
        await().during(Duration.ofMillis(2500))
                .atMost(Duration.ofSeconds(5))
                .until(() -> record(KEY).orElseThrow().leaseUntil(), START.plusSeconds(3)::equals);
        filters.respond(request, created(request));
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }

    @Test
    void withTheServletApi_theHeartbeatRenewsUntilTheResponseIsStored() {
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.http.heartbeat", "true", "idemkit.lease-ttl", "3s");
        FakeRequest request = post(KEY, BODY);
        filters.request(request);

        clock.advance(Duration.ofSeconds(2));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> record(KEY).orElseThrow().leaseUntil(), START.plusSeconds(5)::equals);
        filters.respond(request, created(request));
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }

    @Test
    void heartbeatClosed_theRequestRunsUnderItsLeaseAlone() {
        engine.close(); // closes the heartbeat, as at undeploy
        JaxRsPipeline<IdempotencyFilter> filters =
                filters("idemkit.http.heartbeat", "true", "idemkit.lease-ttl", "3s");
        FakeRequest request = post(KEY, BODY);

        filters.request(request);
        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        filters.respond(request, created(request));

        assertThat(record(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }
}
