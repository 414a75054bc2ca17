package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.MalformedURLException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The retry decision table (C14.5), as plain code: no client, no clock, no sleeping. */
class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    private static final Instant FAR = NOW.plus(Duration.ofHours(1));

    private final ClientSettings settings = ClientSettings.defaults();

    /** The jitter at its top: every back-off is its whole step. */
    private final RetryPolicy policy = new RetryPolicy(settings, () -> 0.999_999);

    @ParameterizedTest
    @ValueSource(ints = {408, 423, 425, 429, 502, 503, 504})
    void aRetryableStatus_isRetried(int status) {
        RetryDecision d = policy.decide(1, AttemptResult.status(status, null), NOW, FAR);

        assertThat(d.retry()).isTrue();
        assertThat(d.delay()).isEqualTo(Duration.ofMillis(200));
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 204, 301, 400, 401, 403, 404, 409, 410, 412, 422, 500, 501})
    void aFinalStatus_isNeverRetried(int status) {
        assertThat(policy.decide(1, AttemptResult.status(status, null), NOW, FAR).retry())
                .isFalse();
    }

    @Test
    void anIoFailure_isRetried() {
        assertThat(policy.decide(1, AttemptResult.ioFailure(), NOW, FAR).retry()).isTrue();
    }

    @Test
    void anAttemptWithAnUnkeyedRequest_isNotRetried() {
        assertThat(policy.decide(1, AttemptResult.ioFailure().unkeyed(), NOW, FAR).retry())
                .isFalse();
        assertThat(policy.decide(1, AttemptResult.status(503, null).unkeyed(), NOW, FAR).retry())
                .isFalse();
    }

    @Test
    void afterMaxRetries_itStops() {
        assertThat(policy.decide(3, AttemptResult.status(503, null), NOW, FAR).retry()).isTrue();
        assertThat(policy.decide(4, AttemptResult.status(503, null), NOW, FAR).retry()).isFalse();
        RetryPolicy none =
                new RetryPolicy(
                        settings.withRetries(0, Duration.ofMillis(200), Duration.ofSeconds(10)),
                        () -> 0);
        assertThat(none.decide(1, AttemptResult.ioFailure(), NOW, FAR).retry()).isFalse();
    }

    @Test
    void backOff_doublesUpToMaxDelay_withJitterBetweenHalfAndAll() {
        RetryPolicy low = new RetryPolicy(settings, () -> 0.0);
        assertThat(policy.backOff(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.backOff(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.backOff(3)).isEqualTo(Duration.ofMillis(800));
        assertThat(policy.backOff(7)).isEqualTo(Duration.ofSeconds(10));
        assertThat(policy.backOff(60)).isEqualTo(Duration.ofSeconds(10));
        assertThat(low.backOff(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(low.backOff(60)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void retryAfterInSeconds_longerThanTheBackOff_isWaited() {
        RetryDecision d = policy.decide(1, AttemptResult.status(423, "3"), NOW, FAR);

        assertThat(d.retry()).isTrue();
        assertThat(d.delay()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void retryAfterShorterThanTheBackOff_leavesTheBackOff() {
        assertThat(policy.decide(3, AttemptResult.status(503, "0"), NOW, FAR).delay())
                .isEqualTo(Duration.ofMillis(800));
    }

    @Test
    void retryAfterAsAnHttpDate_isWaitedUntilThatDate() {
        String date =
                DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        NOW.plusSeconds(4).atOffset(ZoneOffset.UTC));

        RetryDecision d = policy.decide(1, AttemptResult.status(503, date), NOW, FAR);

        assertThat(d.delay()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void retryAfterPastMaxDelay_endsTheRetries() {
        assertThat(policy.decide(1, AttemptResult.status(429, "11"), NOW, FAR).retry()).isFalse();
        assertThat(
                        policy.decide(
                                        1,
                                        AttemptResult.status(429, "99999999999999999999"),
                                        NOW,
                                        FAR)
                                .retry())
                .isFalse();
    }

    /**
     * An in-progress answer's Retry-After is the rest of the first call's lease (27 s with the
     * server's default 30 s lease): a retry within max-delay waits for the result on the server, so
     * the client retries after max-delay instead of giving up.
     */
    @Test
    void inProgressRetryAfterPastMaxDelay_isRetriedAfterMaxDelay() {
        RetryDecision d = policy.decide(1, AttemptResult.status(423, "27"), NOW, FAR);

        assertThat(d.retry()).isTrue();
        assertThat(d.delay()).isEqualTo(settings.maxDelay());
    }

    /** The IETF draft's and the Stripe dialect's in-progress answer. */
    @Test
    void a409WithRetryAfter_isInProgress_andRetriedAsA423() {
        RetryDecision d = policy.decide(1, AttemptResult.status(409, "2"), NOW, FAR);

        assertThat(d.retry()).isTrue();
        assertThat(d.delay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.decide(1, AttemptResult.status(409, "27"), NOW, FAR).delay())
                .isEqualTo(settings.maxDelay());
    }

    /** A 409 without Retry-After is the Stripe dialect's reused key: final. */
    @Test
    void a409WithoutRetryAfter_isFinal() {
        assertThat(policy.decide(1, AttemptResult.status(409, null), NOW, FAR).retry()).isFalse();
        assertThat(policy.decide(1, AttemptResult.status(409, " "), NOW, FAR).retry()).isFalse();
    }

    @Test
    void a409WithRetryAfter_isFinalWhen423IsNotRetried() {
        RetryPolicy only503 =
                new RetryPolicy(settings.withRetryStatuses(java.util.Set.of(503)), () -> 0);

        assertThat(only503.decide(1, AttemptResult.status(409, "2"), NOW, FAR).retry()).isFalse();
    }

    /**
     * Liberty's Rest Client throws an exception whose response has lost its headers: the
     * Retry-After the client filter saw is used.
     */
    @Test
    void aThrownResponseWithoutItsHeaders_takesRetryAfterFromWhatTheFilterSaw() {
        AttemptLog log = new AttemptLog();
        log.sent(true, true);
        log.received(503, false, "2");
        WebApplicationException stripped =
                new WebApplicationException(Response.status(503).build());

        AttemptResult result = IdempotentRetry.resultOf(null, stripped, log);

        assertThat(result.status()).hasValue(503);
        assertThat(result.retryAfter()).isEqualTo("2");
        log.received(502, false, "7");
        assertThat(IdempotentRetry.resultOf(null, stripped, log).retryAfter())
                .as("not another response's")
                .isNull();
    }

    @Test
    void anUnreadableRetryAfter_leavesTheBackOff() {
        assertThat(policy.decide(1, AttemptResult.status(503, "soon"), NOW, FAR).delay())
                .isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aRetryThatWouldStartAtOrPastTheDeadline_isNotMade() {
        assertThat(
                        policy.decide(1, AttemptResult.status(503, null), NOW, NOW.plusMillis(200))
                                .retry())
                .isFalse();
        assertThat(
                        policy.decide(1, AttemptResult.status(503, null), NOW, NOW.plusMillis(201))
                                .retry())
                .isTrue();
        assertThat(
                        policy.decide(1, AttemptResult.status(423, "5"), NOW, NOW.plusSeconds(5))
                                .retry())
                .isFalse();
    }

    @Test
    void configuredStatuses_replaceTheDefaults() {
        RetryPolicy only503 =
                new RetryPolicy(settings.withRetryStatuses(java.util.Set.of(503)), () -> 0);

        assertThat(only503.decide(1, AttemptResult.status(503, null), NOW, FAR).retry()).isTrue();
        assertThat(only503.decide(1, AttemptResult.status(429, null), NOW, FAR).retry()).isFalse();
    }

    @Test
    void transientFailures_areThoseANewConnectionCanCure() {
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new ConnectException("refused"))))
                .isTrue();
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new SocketException("reset"))))
                .isTrue();
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new SocketTimeoutException("read"))))
                .isTrue();
        assertThat(TransientFailures.isTransient(new ProcessingException(new EOFException())))
                .isTrue();
        assertThat(TransientFailures.isTransient(new HttpTimeoutException("t"))).isTrue();
        assertThat(TransientFailures.isTransient(new IOException("Unexpected end of file")))
                .isTrue();

        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new UnknownHostException("h"))))
                .isFalse();
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new MalformedURLException())))
                .isFalse();
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new SSLHandshakeException("x"))))
                .isFalse();
        assertThat(TransientFailures.isTransient(new ProcessingException("no cause"))).isFalse();
        assertThat(TransientFailures.isTransient(new IllegalStateException())).isFalse();
    }
}
