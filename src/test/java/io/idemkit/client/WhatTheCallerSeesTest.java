package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the caller of {@link IdempotentRetry} gets (C14.5, C14.6), over real HTTP: the server's key
 * reuse and in-progress answers as the library's exceptions, told from other answers of the same
 * status by the problem {@code type} (C6.4); the attempts and the reason on every exception and
 * outcome; a replay never retried; {@code Stripe-Should-Retry} obeyed.
 */
class WhatTheCallerSeesTest extends OverLoopback {

    private static final String MISMATCH = "urn:idemkit:payload-mismatch";
    private static final String IN_PROGRESS = "urn:idemkit:in-progress";

    /** A call that returns an entity, and so throws on an error status, as a Rest Client's does. */
    private String charge() {
        return client.target(server.uri("/api/payments"))
                .request()
                .post(Entity.json("{\"amount\":1999}"), String.class);
    }

    private Response chargeForResponse() {
        return client.target(server.uri("/api/payments"))
                .request()
                .post(Entity.json("{\"amount\":1999}"));
    }

    @Test
    void aKeyReuse422_isThrownAsIdempotencyKeyReusedException_causedByTheCallsOwn() {
        server.then(LoopbackServer.problem(422, MISMATCH));

        Throwable thrown = catchThrowable(() -> retry.call(this::charge));

        assertThat(thrown)
                .isInstanceOf(IdempotencyKeyReusedException.class)
                .isInstanceOf(IdempotencyPayloadMismatchException.class)
                .hasCauseInstanceOf(WebApplicationException.class)
                .hasMessageContaining("422")
                .hasMessageContaining(MISMATCH);
        assertThat(((IdempotencyKeyReusedException) thrown).status()).isEqualTo(422);
        assertThat(RetryEnded.of(thrown)).get().extracting(RetryEnded::attempts).isEqualTo(1);
        assertThat(server.keys()).hasSize(1);
    }

    @Test
    void aValidation422_reachesTheCallerUnchanged_withTheReportOfTheRetries() {
        server.then(LoopbackServer.problem(422, "https://example.com/problems/validation"));

        Throwable thrown = catchThrowable(() -> retry.call(this::charge));

        assertThat(thrown)
                .isInstanceOf(WebApplicationException.class)
                .isNotInstanceOf(IdempotencyPayloadMismatchException.class);
        RetryEnded ended = RetryEnded.of(thrown).orElseThrow();
        assertThat(ended.attempts()).isEqualTo(1);
        assertThat(ended.reason()).contains("final answer: status 422");
    }

    @Test
    void aStripeModeKeyReuse409_isIdempotencyKeyReusedException_andNotRetried() {
        server.then(LoopbackServer.problem(409, MISMATCH));

        Throwable thrown = catchThrowable(() -> retry.call(this::charge));

        assertThat(thrown).isInstanceOf(IdempotencyKeyReusedException.class);
        assertThat(((IdempotencyKeyReusedException) thrown).status()).isEqualTo(409);
        assertThat(server.keys()).hasSize(1);
    }

    @Test
    void anInProgress423ThatOutlastsTheRetries_isIdempotencyInProgressException() {
        for (int i = 0; i < 4; i++) {
            server.then(LoopbackServer.problem(423, IN_PROGRESS, "Retry-After", "1"));
        }

        Throwable thrown = catchThrowable(() -> retry.call(this::charge));

        assertThat(thrown)
                .isInstanceOf(IdempotencyStillInProgressException.class)
                .isInstanceOf(IdempotencyInProgressException.class)
                .hasCauseInstanceOf(WebApplicationException.class);
        assertThat(((IdempotencyInProgressException) thrown).retryAfter())
                .isEqualTo(Duration.ofSeconds(1));
        RetryEnded ended = RetryEnded.of(thrown).orElseThrow();
        assertThat(ended.attempts()).isEqualTo(4);
        assertThat(ended.reason()).contains("status 423").contains("3 retries made");
        assertThat(server.keys()).hasSize(4).containsOnly(server.keys().get(0));
    }

    @Test
    void a409InProgressByItsProblemType_withoutRetryAfter_isWaitedOut() {
        server.then(LoopbackServer.problem(409, IN_PROGRESS));

        assertThat(retry.callForOutcome(this::charge).attempts()).isEqualTo(2);
        assertThat(server.keys()).hasSize(2).containsOnly(server.keys().get(0));
    }

    @Test
    void a503ThatOutlastsTheRetries_isTheCallsExceptionUnchanged_withAttemptsAndReason() {
        for (int i = 0; i < 4; i++) {
            server.then(LoopbackServer.status(503));
        }

        Throwable thrown = catchThrowable(() -> retry.call(this::charge));

        assertThat(thrown.getClass()).isEqualTo(jakarta.ws.rs.ServiceUnavailableException.class);
        RetryEnded ended = RetryEnded.of(thrown).orElseThrow();
        assertThat(ended.attempts()).isEqualTo(4);
        assertThat(ended.reason()).isEqualTo("status 503, but 3 retries made");
        assertThat(thrown.getSuppressed()).containsExactly(ended);
    }

    @Test
    void aReturnedResponse_comesWithTheReasonInItsOutcome() {
        for (int i = 0; i < 4; i++) {
            server.then(LoopbackServer.status(503));
        }

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeForResponse);

        assertThat(outcome.value().getStatus()).isEqualTo(503);
        assertThat(outcome.attempts()).isEqualTo(4);
        assertThat(outcome.reason()).isEqualTo("status 503, but 3 retries made");
    }

    @Test
    void aProblemBodyPeekedByTheFilter_isStillWholeForTheCaller() {
        server.then(LoopbackServer.problem(422, MISMATCH));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeForResponse);

        assertThat(outcome.value().getStatus()).isEqualTo(422);
        assertThat(outcome.value().readEntity(String.class))
                .startsWith("{\"title\":\"x\"")
                .endsWith("\"type\":\"" + MISMATCH + "\",\"status\":422}");
        assertThat(outcome.reason()).contains(MISMATCH);
    }

    @Test
    void aReplayed503_isNotRetried_forAStoredAnswerCannotChange() {
        server.then(LoopbackServer.status(503, "Idempotency-Replayed", "true"));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeForResponse);

        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(outcome.replayed()).isTrue();
        assertThat(outcome.reason()).contains("replayed");
        assertThat(server.keys()).hasSize(1);
    }

    @Test
    void stripeShouldRetryFalse_stopsA503() {
        server.then(LoopbackServer.status(503, "Stripe-Should-Retry", "false"));

        RetryOutcome<Response> outcome = retry.callForOutcome(this::chargeForResponse);

        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(outcome.reason()).contains("Stripe-Should-Retry: false");
    }

    @Test
    void stripeShouldRetryTrue_retriesA500AndA409WithoutRetryAfter_withTheSameKey() {
        server.then(LoopbackServer.status(500, "Stripe-Should-Retry", "true"))
                .then(LoopbackServer.status(409, "Stripe-Should-Retry", "true"));

        RetryOutcome<String> outcome = retry.callForOutcome(this::charge);

        assertThat(outcome.attempts()).isEqualTo(3);
        assertThat(server.keys()).hasSize(3).containsOnly(server.keys().get(0));
    }
}
