package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.hash.Fingerprint;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItRuntime;
import io.idemkit.it.harness.OnRuntimes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Every HTTP scenario, over real HTTP against the filter pair, on each runtime of the suite
 * (Liberty, WildFly, Payara Micro): the conformance file's (inherited from {@link
 * HttpConformanceScenarios}) and, here, the edge cases of contract C6. The subclasses deploy the
 * same application on each store.
 */
public abstract class HttpScenarios extends HttpConformanceScenarios {
    // --- C6 edge cases ---------------------------------------------------------------------

    @Test
    void bodyAtTheStoredLimit_isStoredAndReplayedByteForByte() {
        Reply first = http.postJson("api/resources/blob?size=1024", "", KEY, key("B"), TAG, tag);
        Reply second = http.postJson("api/resources/blob?size=1024", "", KEY, key("B"), TAG, tag);

        assertThat(first.has("Idempotency-Replay-Unavailable")).isFalse();
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(second.body()).isEqualTo(first.body()).hasSize(1024);
        assertThat(second.header("Content-Type")).isEqualTo("application/octet-stream");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void quotedAndBareKey_areTheSameKey_andABrokenQuotedOneIs400() {
        Reply bare = post("api/resources", BODY_X, key("Q"));
        Reply quoted = post("api/resources", BODY_X, "\"" + key("Q") + "\"");
        Reply broken = post("api/resources", BODY_X, "\"" + key("Q") + "\";p=1");

        assertThat(bare.status()).isEqualTo(201);
        assertThat(quoted.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(broken.status()).isEqualTo(400);
        assertThat(broken.text()).contains("urn:idemkit:missing-key", "after its quoted string");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void keyOfZeroBytes_isRefusedWith400() {
        Reply reply = raw("Idempotency-Key: ");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.text()).contains("urn:idemkit:missing-key");
        assertThat(calls()).isZero();
    }

    @Test
    @OnRuntimes(
            value = {ItRuntime.LIBERTY, ItRuntime.WILDFLY},
            because =
                    "Payara Micro's HTTP listener (Grizzly) answers an empty 400 to any header byte"
                            + " above 0x7F before the application sees the request, so a UTF-8"
                            + " key cannot reach idemkit there")
    void keysOfOneAnd255Bytes_areAccepted_256BytesIsRefused_countedInUtf8Bytes() {
        String euro255 = "\u20ac".repeat(85); // 85 × 3 bytes
        assertThat(euro255.getBytes(StandardCharsets.UTF_8)).hasSize(255);

        Reply one = raw("Idempotency-Key: " + latin1("k"));
        Reply max = raw("Idempotency-Key: " + latin1(euro255));
        Reply maxAgain = raw("Idempotency-Key: " + latin1(euro255));
        Reply over = raw("Idempotency-Key: " + latin1(euro255 + "a"));

        assertThat(one.status()).isEqualTo(201);
        assertThat(max.status()).isEqualTo(201);
        assertThat(maxAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(over.status()).isEqualTo(400);
        assertThat(over.text()).contains("urn:idemkit:missing-key").contains("256 bytes");
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void keyThatIsNotUtf8_isRefusedWith400() {
        Reply reply = raw("Idempotency-Key: k\u00ff\u00fek");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(calls()).isZero();
    }

    @Test
    void keyHeaderSentTwice_isRefusedWith400() {
        Reply reply = raw("Idempotency-Key: " + key("a"), "Idempotency-Key: " + key("b"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.text()).contains("urn:idemkit:missing-key").contains("2 times");
        assertThat(calls()).isZero();
    }

    @Test
    void malformedJson_isFingerprintedAsRawBytes_andReplayed() {
        Reply first = post("api/resources/raw", "{\"name\": ", key("M"));
        Reply second = post("api/resources/raw", "{\"name\": ", key("M"));
        Reply other = post("api/resources/raw", "{\"name\": \"", key("M"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text()).isEqualTo("call 1 got 9");
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(other.status()).isEqualTo(422);
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void malformedJsonThatTheHandlerCannotRead_failsAsWithoutIdemkit_andIsNotStored() {
        // Liberty's JSON-B provider answers a body it cannot parse with a 500 of its own; the
        // same request to an endpoint without @Idempotent gets the same status.
        Reply without = post("api/resources/plain", "{\"name\": ", key("W"));
        Reply first = post("api/resources", "{\"name\": ", key("M2"));
        Reply second = post("api/resources", "{\"name\": ", key("M2"));

        assertThat(first.status()).isEqualTo(without.status());
        assertThat(second.status()).isEqualTo(without.status());
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isZero();
    }

    @Test
    void errorNoExceptionMapperHandles_releasesTheKeyAtOnce() {
        // waitTimeout=0s on this endpoint: a claim still held would answer 423 at once.
        Reply first = post("api/resources/error", "", key("ER"));
        Reply second = againOnceTheRequestEnded(() -> post("api/resources/error", "", key("ER")));

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(500);
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void asyncRequestThatEndsWithoutReachingTheResponseFilter_releasesTheKeyWhenItEnds() {
        // The same on a suspended resource: the first dispatch ends before the resource resumes,
        // so the release waits for the end of the asynchronous request, not of the dispatch.
        Reply first =
                post(
                        "api/resources/async",
                        BODY_X,
                        key("GA"),
                        DELAY,
                        "300",
                        "X-Test-Break-Response",
                        "1");
        Reply second = post("api/resources/async", BODY_X, key("GA"));

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void requestThatEndsWithoutReachingTheResponseFilter_releasesTheKeyAtOnce() {
        // A response filter ahead of idemkit's throws, so idemkit's never runs; the end of the
        // request releases the claim (C6.7). waitTimeout=0s: a held claim gives 423.
        Reply first = post("api/resources/quick", BODY_X, key("G"), "X-Test-Break-Response", "1");
        Reply second =
                againOnceTheRequestEnded(() -> post("api/resources/quick", BODY_X, key("G")));

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void requestThatEndsWithoutReachingTheResponseFilter_releasesTheKeyWhenItEnds() {
        // A response filter ahead of idemkit's throws, so idemkit's never runs; the end of the
        // request releases the claim (C6.7). waitTimeout=0s: a held claim gives 423. The request
        // ends as its 500 is sent (on WildFly the release can land just after the client has it),
        // so a retry may meet the claim for that instant; a claim never released would answer 423
        // for its whole lease (30 s), far past the 5 s allowed here.
        Reply first = post("api/resources/quick", BODY_X, key("G"), "X-Test-Break-Response", "1");
        Reply second =
                Awaitility.await()
                        .atMost(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> post("api/resources/quick", BODY_X, key("G")),
                                r -> r.status() != 423);

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void writerThatFailsPartWay_holdsTheKey_soARetryDoesNotRunTheHandlerAgain() throws IOException {
        Reply first = post("api/resources/broken-writer", "", key("BW"));
        Reply retry = post("api/resources/broken-writer", "", key("BW"));

        assertThat(first.status()).isNotEqualTo(200);
        assertThat(retry.status()).isEqualTo(423);
        assertThat(retry.header("Retry-After")).isNotNull();
        assertThat(calls()).isEqualTo(1);
        // The runtime then answers with an error response, passing through the filters again;
        // idemkit must leave it alone rather than throw over the writer's own exception.
        assertThat(serverLog("this execution has already ended")).isZero();
    }

    /**
     * How many lines of the log of the server the scenarios run on contain {@code marker}: the file
     * that the execution names in {@code idemkit.it.server-log} (WildFly's {@code
     * standalone/log/server.log}), else the main Liberty server's messages.log. A subclass whose
     * scenarios run on a server of its own reads that server's log instead.
     */
    long serverLog(String marker) throws IOException {
        return suiteServerLog(marker);
    }

    /**
     * @param marker a text
     * @return how many lines of the log of the server of this execution contain it: the file that
     *     the execution names in {@code idemkit.it.server-log} (WildFly's, Payara's), else the main
     *     Liberty server's messages.log
     */
    static long suiteServerLog(String marker) throws IOException {
        String runtimeLog = System.getProperty("idemkit.it.server-log");
        Path log =
                runtimeLog != null
                        ? Path.of(runtimeLog)
                        : Path.of(
                                System.getProperty("liberty.wlp.home", "target/liberty/wlp"),
                                "usr/servers",
                                System.getProperty("liberty.server.name", "idemkit-it"),
                                "logs/messages.log");
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(marker)).count();
        }
    }

    @Test
    void unauthenticatedCaller_isRefusedByTheContainer_beforeIdemkitClaimsAnything() {
        // Container security runs before the filter pair (C6.10).
        Reply reply = post("api/secure/resources", BODY_X, key("K9"));

        assertThat(reply.status()).isEqualTo(401);
        assertThat(calls()).isZero();
    }

    @Test
    void methodWithoutTheAnnotation_isNotTouched() {
        Reply first = post("api/resources/plain", BODY_X, key("P"));
        Reply second = post("api/resources/plain", BODY_X, key("P"));

        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(first.has("Idempotency-Key-Expires")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void resourceThatIsACdiBean_isHandledByTheFilterOnly_neverByTheInterceptorToo() {
        Reply first = post("api/scoped", BODY_X, key("C"));
        Reply second = post("api/scoped", BODY_X, key("C"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
        assertThat(http.get("api/events/surface/method").text()).isEqualTo("0");
    }

    @Test
    void handledResponse_carriesAnImfFixdateExpiry() {
        Reply first = post("api/resources", BODY_X, key("E"));
        Reply second = post("api/resources", BODY_X, key("E"));

        String pattern = "[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT";
        assertThat(first.header("Idempotency-Key-Expires")).matches(pattern);
        assertThat(second.header("Idempotency-Key-Expires")).matches(pattern);
    }

    @Test
    void unmappedException_releasesTheKeyAtOnce() {
        // waitTimeout=0s on this endpoint: a claim still held would answer 423 at once.
        Reply first = post("api/resources/throw?kind=unmapped", BODY_X, key("U"));
        Reply second =
                againOnceTheRequestEnded(
                        () -> post("api/resources/throw?kind=unmapped", BODY_X, key("U")));

        assertThat(first.status()).isEqualTo(500);
        assertThat(second.status()).isEqualTo(500);
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void mappedException_givesItsStatus_andReleases() {
        Reply first = post("api/resources/throw?kind=mapped", BODY_X, key("X"));
        Reply second = post("api/resources/throw?kind=mapped", BODY_X, key("X"));

        assertThat(first.status()).isEqualTo(409);
        assertThat(second.status()).isEqualTo(409);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void noContentResponse_isStoredAndReplayed() {
        Reply first = post("api/resources/empty", "", key("N"));
        Reply second = post("api/resources/empty", "", key("N"));

        assertThat(first.status()).isEqualTo(204);
        assertThat(second.status()).isEqualTo(204);
        assertThat(second.header("ETag")).isEqualTo(first.header("ETag"));
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void createdWithLocationAndNoBody_isStoredAndReplayed() {
        Reply first = post("api/resources/empty?location=true", "", key("L"));
        Reply second = post("api/resources/empty?location=true", "", key("L"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Location")).isEqualTo(first.header("Location"));
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void streamingResponse_isDeliveredAndNotStored() {
        Reply first = post("api/resources/stream", "", key("S"));
        Reply second = post("api/resources/stream", "", key("S"));

        assertThat(first.text()).isEqualTo("streamed 1");
        assertThat(first.header("Idempotency-Replay-Unavailable")).isEqualTo("streaming");
        assertThat(second.text()).isEqualTo("streamed 2");
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void requestBodyOverTheCap_bypassesIdempotency_andTheHandlerSeesItWhole() {
        String name = "n".repeat(70_000); // max-request-bytes is 65536 here
        String body = "{\"name\":\"" + name + "\"}";
        Reply first = post("api/resources", body, key("R"));
        Reply second = post("api/resources", body, key("R"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text()).contains(name);
        assertThat(first.header("Idempotency-Replay-Unavailable")).isEqualTo("request-too-large");
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void asyncResponse_holdsTheClaimUntilResumed() throws Exception {
        assertDuplicateWaitsAndReplays("api/resources/async");
    }

    @Test
    void completionStage_holdsTheClaimUntilItCompletes() throws Exception {
        assertDuplicateWaitsAndReplays("api/resources/stage");
    }

    private void assertDuplicateWaitsAndReplays(String path) throws Exception {
        CompletableFuture<Reply> r1 =
                CompletableFuture.supplyAsync(() -> post(path, BODY_X, key("A"), DELAY, "800"));
        awaitCalls(1);
        Reply r2 = post(path, BODY_X, key("A"));

        Reply first = r1.get(30, TimeUnit.SECONDS);
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.has("Idempotency-Replayed")).isFalse();
        assertThat(r2.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(r2.text()).isEqualTo(first.text());
        assertThat(calls()).isEqualTo(1);
    }

    /**
     * A resource that outlives its 1 s lease, and a duplicate sent after the lease: with the HTTP
     * heartbeat the claim is still held (423); without it the duplicate takes the key over.
     *
     * @return the duplicate's reply and the first request's, after both ended
     */
    Reply[] duplicateOfARequestThatOutlivesItsLease() throws Exception {
        String path = "api/resources/short-lease/outlived";
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(() -> post(path, BODY_X, key("O"), DELAY, "2500"));
        awaitCalls(1);
        org.awaitility.Awaitility.await()
                .pollDelay(java.time.Duration.ofMillis(1500))
                .until(() -> true);
        Reply duplicate = post(path, BODY_X, key("O"), DELAY, "0");
        return new Reply[] {duplicate, first.get(30, TimeUnit.SECONDS)};
    }

    /**
     * A claim that nobody ends is reclaimed once its 300 ms lease has run out: the application's
     * own store claims the request's key with the endpoint's lease and never ends the claim, as a
     * server that died right after claiming would leave it. No process dies, so this is not the
     * reference's crash-recovery-lease-expiry, which the conformance page's table counts only where
     * a real server is killed ({@code HttpCrashAndRestartIT} on MongoDB).
     */
    void stagedCrashRecovery() throws Exception {
        String path = "api/resources/short-lease";
        String fingerprint =
                Fingerprint.forHttp(
                        "POST",
                        base.toURI().getPath() + path,
                        null,
                        BODY_X.getBytes(StandardCharsets.UTF_8),
                        "application/json");
        Reply claimed =
                http.postJson(
                        "api/abandon?leaseMs=300&key="
                                + effectiveKey(key("K6"), path)
                                + "&fingerprint="
                                + fingerprint,
                        "");
        assertThat(claimed.text()).isEqualTo("NEW");
        Reply during = post(path, BODY_X, key("K6"));
        Awaitility.await().pollDelay(Duration.ofMillis(600)).until(() -> true);
        Reply after = post(path, BODY_X, key("K6"));

        assertThat(during.status()).isEqualTo(423);
        assertThat(after.status()).isEqualTo(201);
        assertThat(calls()).isEqualTo(1);
        assertThat(http.get("api/events/" + effectiveKey(key("K6"), path)).text())
                .isEqualTo("idempotency.conflict,idempotency.lease_reclaimed");
    }

    /**
     * Sends {@code retry}, right after a request whose 500 released its claim at the request's end
     * (C6.7): at once, except where the request ends only after its 500 was sent ({@link
     * ItRuntime#endsRequestAfterSendingResponse()}, WildFly: a known gap), so a retry sent at once
     * can meet the claim for that instant (423). There the retry is sent again while it meets it,
     * for 5 s at most: a claim never released would answer 423 for its whole 30 s lease.
     */
    static Reply againOnceTheRequestEnded(java.util.function.Supplier<Reply> retry) {
        if (!ItRuntime.current().endsRequestAfterSendingResponse()) {
            return retry.get();
        }
        return Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(retry::get, r -> r.status() != 423);
    }
}
