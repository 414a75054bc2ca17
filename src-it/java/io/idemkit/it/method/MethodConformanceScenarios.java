package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tool-call scenarios of {@code idemkit-conformance.yaml} ({@code ai_tool_scenarios}) on the
 * method surface (C7), each test named after its {@code id}: a tool is an {@code @Idempotent} CDI
 * method of {@code io.idemkit.it.method.app.Tools}, its {@code key_fields} its
 * {@code @IdempotencyKey} parameters, called over HTTP by a plain resource ({@code ToolsResource})
 * in the application that each store's {@link MethodSurfaceContract} class deploys. Each test's tag
 * in the key fields keeps the tests apart in one store. {@code tool-pickle-opt-in-warns} does not
 * apply in Java (no pickle codec to opt into); the conformance page's table shows it so, and {@link
 * #plantedSerializedResult_isRefusedAndNeverDeserialized} shows what stands in its place.
 */
abstract class MethodConformanceScenarios {

    private static final String TOOLS = "io.idemkit.it.method.app.Tools";

    @ArquillianResource URL base;

    private HttpCalls http;
    private String tag;

    @BeforeEach
    void openToolClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
    }

    private Reply call(String tool, String x) {
        return http.postJson("api/tools/" + tool + "?x=" + x, "");
    }

    private Reply book(String origin, String destination, String requestId) {
        return http.postJson(
                "api/tools/book?origin="
                        + origin
                        + "&destination="
                        + destination
                        + "&requestId="
                        + requestId,
                "");
    }

    private int runs(String operation) {
        return Integer.parseInt(http.get("api/tools/runs?operation=" + operation).text());
    }

    /** The effective key of an anonymous caller's call of a tool whose one key field is x. */
    private static String effectiveKey(String signature, String x) {
        return EffectiveKey.forMethod(x, ScopeResolver.SINGLE_TENANT_SCOPE, TOOLS, signature);
    }

    @Test
    void tool_retry_dedup() {
        String origin = "SFO-" + tag;
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            replies.add(book(origin, "JFK", "r" + i));
        }

        assertThat(replies).extracting(Reply::status).containsOnly(200);
        assertThat(replies).extracting(Reply::text).containsOnly(origin + "-JFK-1");
        assertThat(runs("book:" + origin)).isEqualTo(1);
    }

    @Test
    void tool_arg_normalization() {
        String origin = "SFO-" + tag;

        Reply r1 = book(origin, "JFK", "r1");
        Reply r2 = book(origin, "JFK", "r2");
        Reply r3 = book(origin, "LAX", "r3");

        // request_id is no key field: r2 replays r1's result without running.
        assertThat(r1.text()).isEqualTo(origin + "-JFK-1");
        assertThat(r2.text()).isEqualTo(r1.text());
        // destination is one: r3 runs.
        assertThat(r3.text()).isEqualTo(origin + "-LAX-2");
        assertThat(runs("book:" + origin)).isEqualTo(2);
    }

    @Test
    void tool_concurrent_calls() throws Exception {
        String x = "v-" + tag;
        int parallel = 10;
        CyclicBarrier start = new CyclicBarrier(parallel);
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Reply>> calls = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                calls.add(
                        pool.submit(
                                () -> {
                                    start.await(30, TimeUnit.SECONDS);
                                    return call("act", x);
                                }));
            }
            List<Reply> replies = new ArrayList<>();
            for (Future<Reply> call : calls) {
                replies.add(call.get(60, TimeUnit.SECONDS));
            }

            // The replies in the message: a status alone does not say which exception.
            assertThat(replies)
                    .as("replies %s", replies.stream().map(Reply::text).toList())
                    .extracting(Reply::status)
                    .containsOnly(200);
            assertThat(replies).extracting(Reply::text).containsOnly(x + "-1");
            assertThat(runs("act:" + x)).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tool_crash_recovery() {
        String x = "v-" + tag;

        Reply crashed = call("crash-once", x);
        Reply retry = call("crash-once", x);
        Reply again = call("crash-once", x);

        // The raise released the claim at once (C7.3): the retry runs, and is then replayed.
        assertThat(crashed.status()).isEqualTo(500);
        assertThat(crashed.text()).isEqualTo("IllegalStateException: tool crashed");
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.text()).isEqualTo(x + "-2");
        assertThat(again.text()).isEqualTo(retry.text());
        assertThat(runs("crash-once:" + x)).isEqualTo(2);
    }

    @Test
    void tool_unserializable_result_fails_closed() {
        String x = "v-" + tag;
        String key =
                effectiveKey(
                        "unserializable(java.lang.String)io.idemkit.it.method.app.UnwritableResult",
                        x);

        Reply first = call("unserializable", x);
        String record = http.get("api/tools/record?key=" + key).text();
        Reply retry = call("unserializable", x);

        // An error, nothing cached, and the claim held until its lease runs out (C7.2): the
        // immediate retry is refused (this tool does not wait) and does not run.
        assertThat(first.status()).isEqualTo(409);
        assertThat(first.text()).startsWith("IdempotencyResultNotStorableException: ");
        assertThat(record).isEqualTo("CLAIMED without a result");
        assertThat(retry.status()).isEqualTo(409);
        assertThat(retry.text()).startsWith("IdempotencyInProgressException: ");
        assertThat(runs("unserializable:" + x)).isEqualTo(1);
    }

    /**
     * Not the reference's {@code tool-pickle-opt-in-warns}, which does not apply in Java (the
     * conformance page's table says why): what the library does with a stored result that is a Java
     * serialization stream, which runs code named by the bytes when read back (what the reference
     * warns about in pickle). The library offers no codec that reads one, and its JSON-B codec
     * refuses such bytes: a result planted in the store (as an attacker with write access to it
     * could) is refused, and no object from the stream is ever created.
     */
    @Test
    void plantedSerializedResult_isRefusedAndNeverDeserialized() {
        String x = "planted-" + tag;
        String key = effectiveKey("act(java.lang.String)java.lang.String", x);
        Reply planted = http.postJson("api/tools/planted-serialized?key=" + key, "");

        Reply call = call("act", x);

        assertThat(planted.text()).isEqualTo("NEW and completed");
        assertThat(call.status()).isEqualTo(409);
        assertThat(call.text())
                .startsWith("IdempotencyStorageException: ")
                .contains("cannot be rebuilt");
        assertThat(http.get("api/tools/gadget-reads").text()).isEqualTo("0");
        assertThat(runs("act:" + x)).isZero();
    }
}
