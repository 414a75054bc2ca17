package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.Execution;
import io.idemkit.core.OperationPolicy;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The redactor hook on the HTTP surface (C4.10): the client that ran the request receives the
 * response as the resource wrote it, the store holds the redacted copy (status, headers and body),
 * and a replay serves that copy; a redactor that throws stores nothing and releases, and the client
 * still gets its response.
 */
class IdempotencyFilterRedactorTest extends IdempotencyFilterFixture {

    static final String CARD = "4111111111111111";
    static final String MASKED = "************1111";
    static final String CHARGED = "{\"id\":7,\"card\":\"" + CARD + "\"}";

    private IdempotencyRedactor redactor = OperationPolicy.NO_REDACTION;

    @Override
    OperationPolicy policyOf(IdemkitConfig config) {
        return config.defaults().withRedactor(redactor);
    }

    /** Masks the card in the body and drops the stored {@code Location} header. */
    static StoredResult maskCard(StoredResult result) {
        return new StoredResult(
                result.status(),
                result.headers().stream().filter(h -> !h.name().equals("Location")).toList(),
                new String(result.body(), StandardCharsets.UTF_8)
                        .replace(CARD, MASKED)
                        .getBytes(StandardCharsets.UTF_8));
    }

    FakeResponse charged(FakeRequest request) {
        runs.incrementAndGet();
        return FakeResponse.of(201)
                .entity(CHARGED, "application/json")
                .header("Location", "http://localhost/shop/api/orders/7");
    }

    @Test
    void firstResponseCarriesTheCard_storeAndReplayCarryTheRedactedCopy() {
        redactor = IdempotencyFilterRedactorTest::maskCard;
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served first = filters.serve(post(KEY, BODY), this::charged);
        Served replay = filters.serve(post(KEY, BODY), this::charged);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text()).isEqualTo(CHARGED);
        assertThat(first.header("Location")).isEqualTo("http://localhost/shop/api/orders/7");
        IdempotencyRecord stored = record(KEY).orElseThrow();
        assertThat(new String(stored.result().body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":7,\"card\":\"" + MASKED + "\"}");
        assertThat(header(stored, "Location")).isNull();
        assertThat(header(stored, "Content-Type")).startsWith("application/json");
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.text()).isEqualTo("{\"id\":7,\"card\":\"" + MASKED + "\"}");
        assertThat(replay.header("Location")).isNull();
        assertThat(runs).hasValue(1);
    }

    @Test
    void redactorRewritingTheStatus_replaysThatStatus() {
        redactor = result -> new StoredResult(200, result.headers(), result.body());
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served first = filters.serve(post(KEY, BODY), this::charged);
        Served replay = filters.serve(post(KEY, BODY), this::charged);

        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.status()).isEqualTo(200);
    }

    @Test
    void responseWithoutBody_isRedactedToo() {
        redactor = IdempotencyFilterRedactorTest::maskCard;
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        Served first =
                filters.serve(
                        post(KEY, BODY),
                        answering(FakeResponse.of(204).header("Location", "/orders/" + CARD)));

        assertThat(first.header("Location")).isEqualTo("/orders/" + CARD);
        assertThat(header(record(KEY).orElseThrow(), "Location")).isNull();
    }

    @Test
    void throwingRedactor_clientGetsItsResponse_nothingIsStored_retryRunsAgain() {
        redactor =
                result -> {
                    throw new IllegalStateException(
                            new String(result.body(), StandardCharsets.UTF_8));
                };
        JaxRsPipeline<IdempotencyFilter> filters = filters();

        try (CapturedLog log = CapturedLog.of(Execution.class)) {
            Served first = filters.serve(post(KEY, BODY), this::charged);

            assertThat(first.status()).isEqualTo(201);
            assertThat(first.text()).isEqualTo(CHARGED);
            assertThat(log.warnings()).hasSize(1);
            assertThat(log.warnings().get(0))
                    .contains(IllegalStateException.class.getName())
                    .doesNotContain(CARD)
                    .doesNotContain(KEY);
        }
        assertThat(record(KEY)).isEmpty();
        Served retry = filters.serve(post(KEY, BODY), this::charged);
        assertThat(retry.header("Idempotency-Replayed")).isNull();
        assertThat(runs).hasValue(2);
    }
}
