package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.it.harness.TestPorts;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retries over real HTTP (C14.5, C14.6): a Jersey client with the feature, the JDK's HTTP server on
 * loopback. The executor's waits are recorded, not slept.
 */
class RetryOverHttpTest extends OverLoopback {

    private WebTarget payments() {
        return client.target(server.uri("/api/payments"));
    }

    private Response charge() {
        return payments().request().post(Entity.json("{\"amount\":1999}"));
    }

    /** Two calls of one operation: a charge, then a shipment, whose answer is returned. */
    private Response chargeThenShip() {
        charge().close();
        return client.target(server.uri("/api/shipments")).request().post(Entity.json("{}"));
    }

    @Test
    void aDroppedResponse_isSentAgain_withTheSameKey() {
        // Two drops: the JDK's HttpURLConnection may resend a POST once by itself (with the same
        // headers, so the same key); the executor retries whatever reaches it.
        server.then(LoopbackServer.drop()).then(LoopbackServer.drop());

        RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.value().getStatus()).isEqualTo(201);
        assertThat(outcome.attempts()).isBetween(2, 3);
        assertThat(server.keys()).hasSize(3).doesNotContainNull();
        assertThat(server.keys()).containsOnly(server.keys().get(0));
    }

    @Test
    void a423_thenA201_isRetriedAfterItsRetryAfter_withTheSameKey() {
        server.then(LoopbackServer.status(423, "Retry-After", "1"));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.value().getStatus()).isEqualTo(201);
        assertThat(outcome.attempts()).isEqualTo(2);
        assertThat(outcome.replayed()).isFalse();
        assertThat(waits).containsExactly(Duration.ofSeconds(1));
        assertThat(server.keys()).hasSize(2).containsOnly(server.keys().get(0));
    }

    @Test
    void a422_isNotRetried_andIsReturnedAsItCame() {
        server.then(LoopbackServer.status(422));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.value().getStatus()).isEqualTo(422);
        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(server.keys()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void aReadTimeout_isRetried_withTheSameKey() {
        client.property("jersey.config.client.readTimeout", 300);
        server.then(server.stall());

        RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.value().getStatus()).isEqualTo(201);
        assertThat(server.keys()).hasSizeGreaterThanOrEqualTo(2).containsOnly(server.keys().get(0));
    }

    @Test
    void aReplayAfterA503_isReportedAsAReplay() {
        server.then(LoopbackServer.status(503))
                .then(LoopbackServer.status(201, "Idempotency-Replayed", "true"));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.replayed()).isTrue();
        assertThat(outcome.attempts()).isEqualTo(2);
        assertThat(IdempotentResponses.isReplay(outcome.value())).isTrue();
    }

    @Test
    void aCallThatReturnsAnEntity_isRetriedOnTheExceptionItThrows_asARestClientCall() {
        server.then(LoopbackServer.status(503)).then(LoopbackServer.status(502));

        RetryOutcome<String> outcome =
                retry.callForOutcome(
                        () -> payments().request().post(Entity.json("{}"), String.class));

        assertThat(outcome.value()).isEqualTo("{\"status\":201}");
        assertThat(outcome.attempts()).isEqualTo(3);
        assertThat(server.keys()).hasSize(3).containsOnly(server.keys().get(0));
    }

    @Test
    void aRefusedConnection_isRetriedUpToMaxRetries_thenTheFailureReachesTheCaller()
            throws Exception {
        URI target = URI.create("http://127.0.0.1:" + TestPorts.next() + "/x");

        assertThatThrownBy(
                        () ->
                                retry.call(
                                        () ->
                                                client.target(target)
                                                        .request()
                                                        .post(Entity.json("{}"))))
                .isInstanceOf(ProcessingException.class);
        assertThat(waits).hasSize(3);
    }

    @Test
    void twoCallsOfAnOperation_areRetriedTogether_andTheFirstIsReplayedWithItsKey() {
        server.then(LoopbackServer.status(201)).then(LoopbackServer.status(503));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeThenShip);

        assertThat(outcome.value().getStatus()).isEqualTo(201);
        List<String> keys = server.keys();
        assertThat(keys).hasSize(4);
        assertThat(keys.get(2)).isEqualTo(keys.get(0));
        assertThat(keys.get(3)).isEqualTo(keys.get(1)).isNotEqualTo(keys.get(0));
    }

    @Test
    void noRetryStarts_whenAKeyOfTheOperationExpiresWithinTheMargin() {
        String soon =
                DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        Instant.now().plusSeconds(30).atOffset(ZoneOffset.UTC));
        server.then(LoopbackServer.status(201, "Idempotency-Key-Expires", soon))
                .then(LoopbackServer.status(503));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeThenShip);

        assertThat(outcome.value().getStatus()).isEqualTo(503);
        assertThat(outcome.attempts()).isEqualTo(1);
    }

    @Test
    void anUnkeyedPut_isNotRetried() {
        server.then(LoopbackServer.status(503));

        RetryOutcome<Response> outcome =
                retry.callForOutcome(() -> payments().request().put(Entity.json("{}")));

        assertThat(outcome.value().getStatus()).isEqualTo(503);
        assertThat(outcome.attempts()).isEqualTo(1);
    }

    @Test
    void aClientWithoutTheFeature_isNotRetried() {
        server.then(LoopbackServer.status(503));
        try (Client bare = ClientBuilder.newClient()) {
            RetryOutcome<Response> outcome =
                    retry.callForOutcome(
                            () -> bare.target(server.uri("/x")).request().post(Entity.json("{}")));

            assertThat(outcome.attempts()).isEqualTo(1);
            assertThat(server.keys()).containsExactly((String) null);
        }
    }
}
