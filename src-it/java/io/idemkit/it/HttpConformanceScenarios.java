package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The HTTP scenarios of {@code idemkit-conformance.yaml}, each test named after its {@code id},
 * over real HTTP against the filter pair.
 */
abstract class HttpConformanceScenarios extends HttpScenarioSupport {
    // --- the conformance file's HTTP scenarios ---------------------------------------------

    @Test
    void basic_replay() {
        Reply first = post("api/resources", BODY_X, key("K1"));
        Reply second = post("api/resources", BODY_X, key("K1"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.has("Idempotency-Replayed")).isFalse();
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(second.text()).isEqualTo(first.text());
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void payload_mismatch() {
        Reply first = post("api/resources", BODY_X, key("K2"));
        Reply second = post("api/resources", BODY_Y, key("K2"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(422);
        assertThat(second.header("Content-Type")).startsWith("application/problem+json");
        assertThat(second.text())
                .contains("\"type\":\"urn:idemkit:payload-mismatch\"")
                .contains("\"status\":422")
                .contains("\"title\":")
                .contains("\"detail\":")
                .doesNotContain(key("K2"))
                .doesNotContain("\"x\"");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void concurrent_same_key_exactly_once() throws Exception {
        int parallel = 50;
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<CompletableFuture<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                replies.add(
                        CompletableFuture.supplyAsync(
                                () -> {
                                    await(start);
                                    return post("api/resources", BODY_X, key("K3"), DELAY, "300");
                                },
                                pool));
            }
            start.countDown();
            List<Reply> all = replies.stream().map(CompletableFuture::join).toList();

            assertThat(calls()).isEqualTo(1);
            assertThat(all).extracting(Reply::status).containsOnly(201);
            assertThat(all).extracting(Reply::text).containsOnly(all.get(0).text());
            assertThat(all.stream().filter(r -> "true".equals(r.header("Idempotency-Replayed"))))
                    .hasSize(parallel - 1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void in_flight_wait_then_replay() throws Exception {
        CompletableFuture<Reply> r1 =
                CompletableFuture.supplyAsync(
                        () -> post("api/resources", BODY_X, key("K4"), DELAY, "500"));
        awaitCalls(1);
        Reply r2 = post("api/resources", BODY_X, key("K4"));

        assertThat(r2.status()).isEqualTo(201);
        assertThat(r2.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(r2.text()).isEqualTo(r1.get(30, TimeUnit.SECONDS).text());
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void in_flight_wait_timeout() throws Exception {
        CompletableFuture<Reply> r1 =
                CompletableFuture.supplyAsync(
                        () -> post("api/resources/impatient", BODY_X, key("K5"), DELAY, "5000"));
        awaitCalls(1);
        Reply r2 = post("api/resources/impatient", BODY_X, key("K5"));

        assertThat(r2.status()).isEqualTo(423);
        assertThat(r2.text()).contains("\"type\":\"urn:idemkit:in-progress\"");
        assertThat(Integer.parseInt(r2.header("Retry-After"))).isBetween(1, 30);
        assertThat(calls()).isEqualTo(1);
        assertThat(r1.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
    }

    @Test
    void five_xx_not_cached_by_default() {
        // The conformance id is 5xx-not-cached-by-default; a Java name cannot start with a digit.
        Reply first = post("api/resources", BODY_X, key("K7"), "X-Test-Status", "500");
        Reply second = post("api/resources", BODY_X, key("K7"));

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void response_headers_preserved() {
        Reply first = post("api/resources", BODY_X, key("K10"), "X-Test-Headers", "true");
        Reply second = post("api/resources", BODY_X, key("K10"));

        assertThat(first.header("Set-Cookie")).contains("session=secret-value");
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Location")).endsWith("/resources/abc123");
        assertThat(second.header("ETag")).isEqualTo("\"v1\"");
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(second.has("Set-Cookie")).isFalse();
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void body_size_exceeded_bypass() {
        // max-body-bytes is 1024 here; the body is written in 100-byte chunks with no length.
        Reply first = http.postJson("api/resources/blob?size=2048", "", KEY, key("K12"), TAG, tag);
        Reply second = http.postJson("api/resources/blob?size=2048", "", KEY, key("K12"), TAG, tag);

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body()).hasSize(2048);
        assertThat(first.header("Idempotency-Replay-Unavailable")).isEqualTo("size-exceeded");
        assertThat(first.has("Idempotency-Key-Expires")).isFalse();
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }
}
