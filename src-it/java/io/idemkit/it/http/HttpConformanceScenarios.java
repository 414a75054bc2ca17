package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The HTTP scenarios of {@code idemkit-conformance.yaml}, each test named after its {@code id},
 * over real HTTP against the filter pair, in the application {@link #scenarioWar} builds. {@code
 * crash-recovery-lease-expiry} needs a process that dies, which only a class with a server of its
 * own can kill ({@code HttpCrashAndRestartIT}, the JDBC classes); a store that cannot hold a
 * corrupt record skips {@code corrupt-record-treated-as-absent}. The conformance page's table says
 * which class runs which vector on which store, and why a vector does not apply to one.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class HttpConformanceScenarios extends HttpScenarioSupport {

    /** The first requests of {@link #in_flight_wait_timeout} that its class has not checked yet. */
    private static final List<CompletableFuture<Reply>> STILL_RUNNING =
            new CopyOnWriteArrayList<>();

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

    /**
     * The vector's first request runs 5 s; its duplicate's 200 ms wait ends long before. The test
     * checks the duplicate's answer and leaves the first request running: its own answer, 201, is
     * checked when the class's other tests have run ({@link #firstRequestsOutlivingTheirTests}), so
     * that the 5 s pass under them rather than in a wait of their own. It runs first for that.
     */
    @Test
    @Order(1)
    void in_flight_wait_timeout() throws Exception {
        CompletableFuture<Reply> r1 =
                CompletableFuture.supplyAsync(
                        () -> post("api/resources/impatient", BODY_X, key("K5"), DELAY, "5000"));
        STILL_RUNNING.add(r1);
        awaitCalls(1);
        Reply r2 = post("api/resources/impatient", BODY_X, key("K5"));

        assertThat(r2.status()).isEqualTo(423);
        assertThat(r2.text()).contains("\"type\":\"urn:idemkit:in-progress\"");
        assertThat(Integer.parseInt(r2.header("Retry-After"))).isBetween(1, 30);
        assertThat(calls()).isEqualTo(1);
    }

    /** The first requests of {@link #in_flight_wait_timeout} end as the handler answered: 201. */
    @AfterAll
    static void firstRequestsOutlivingTheirTests() throws Exception {
        try {
            for (CompletableFuture<Reply> r1 : STILL_RUNNING) {
                assertThat(r1.get(30, TimeUnit.SECONDS).status())
                        .as("the first request of in_flight_wait_timeout")
                        .isEqualTo(201);
            }
        } finally {
            STILL_RUNNING.clear();
        }
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
    void cross_tenant_isolation() {
        // Two real users of the runtime's registry (C5): without a scope source, the principal.
        String key = key("K8");
        Reply a = postAs("tenant-A", key);
        Reply b = postAs("tenant-B", key);
        Reply aAgain = postAs("tenant-A", key);

        assertThat(a.status()).isEqualTo(201);
        assertThat(a.text()).contains("tenant-A");
        assertThat(b.status()).isEqualTo(201);
        assertThat(b.text()).contains("tenant-B");
        assertThat(b.has("Idempotency-Replayed")).isFalse();
        assertThat(aAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(aAgain.text()).isEqualTo(a.text());
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void missing_key_when_required() {
        // The scenarios' application requires a key (idemkit.require-key=true, C6.1).
        Reply reply = http.postJson("api/resources", BODY_X, TAG, tag);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.text()).contains("\"type\":\"urn:idemkit:missing-key\"");
        assertThat(calls()).isZero();
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
    void corrupt_record_treated_as_absent() throws Exception {
        String path = "api/resources";
        String effectiveKey = effectiveKey(key("K11"), path);
        plantCorruptRecord(effectiveKey);

        Reply reply = post(path, BODY_X, key("K11"));

        // Absent, not a 500 (C3): the handler runs, and the corrupt_record event says why.
        assertThat(reply.status()).isEqualTo(201);
        assertThat(reply.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(1);
        assertThat(http.get("api/events/" + effectiveKey).text())
                .isEqualTo("idempotency.corrupt_record");
    }

    /**
     * Writes, in the store the application uses, a record of {@code effectiveKey} that the store
     * cannot read, as a broken writer or another version could leave it. A store that holds only
     * well-typed records (the in-memory one) cannot hold one: there the vector is skipped, and
     * reported so.
     *
     * @param effectiveKey the record's effective key
     */
    void plantCorruptRecord(String effectiveKey) throws Exception {
        Assumptions.abort(
                "this store holds only well-typed records: no corrupt record can be planted");
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
