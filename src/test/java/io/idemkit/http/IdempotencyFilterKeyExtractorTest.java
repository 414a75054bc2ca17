package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyKeyExtractor;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeSecurityContext;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A key that an application's {@link IdempotencyKeyExtractor} takes from the request (C6.1): from a
 * field of the body, from a claim of the caller's token, and what happens when it finds none, a bad
 * one, or throws.
 */
class IdempotencyFilterKeyExtractorTest extends IdempotencyFilterFixture {

    private static final String BY_REFERENCE = "com.example.OrderReference";
    private static final String[] GLOBAL = {"idemkit.key-extractor", BY_REFERENCE};

    /** The body's {@code reference} field, the way an application would write it with JSON-P. */
    private static final IdempotencyKeyExtractor ORDER_REFERENCE =
            request ->
                    request.body()
                            .map(
                                    bytes -> {
                                        try (JsonReader reader =
                                                Json.createReader(
                                                        new ByteArrayInputStream(bytes))) {
                                            JsonObject order = reader.readObject();
                                            return order.getString("reference", null);
                                        }
                                    });

    /** A token whose claims the runtime verified, as MicroProfile JWT's {@code JsonWebToken}. */
    private record Token(String name, Map<String, String> claims) implements Principal {
        @Override
        public String getName() {
            return name;
        }
    }

    private static String order(String reference, int qty) {
        return "{\"reference\":\"" + reference + "\",\"qty\":" + qty + "}";
    }

    private static FakeRequest withToken(String jti) {
        return unkeyed(BODY)
                .caller(
                        FakeSecurityContext.of(
                                new Token("alice", Map.of("txn", "t-77", "jti", jti))));
    }

    private static FakeRequest unkeyed(String body) {
        return FakeRequest.of("POST", "orders").json(body);
    }

    private Served serve(FakeRequest request, String... keyValues) {
        return filters(keyValues).serve(request, this::created);
    }

    @Test
    void aFieldOfTheBody_isTheKey_andTheResourceStillReadsTheWholeBody() {
        extractors.put(BY_REFERENCE, ORDER_REFERENCE);
        List<String> bodiesRead = new ArrayList<>();

        Served first =
                filters(GLOBAL)
                        .serve(
                                unkeyed(order("ord-1", 1)),
                                request -> {
                                    bodiesRead.add(
                                            new String(
                                                    request.readEntity(), StandardCharsets.UTF_8));
                                    return created(request);
                                });
        Served again = serve(unkeyed(order("ord-1", 1)), GLOBAL);
        Served changed = serve(unkeyed(order("ord-1", 2)), GLOBAL);
        Served another = serve(unkeyed(order("ord-2", 1)), GLOBAL);

        assertThat(first.status()).isEqualTo(201);
        assertThat(bodiesRead).containsExactly(order("ord-1", 1));
        assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
        assertProblem(changed, 422, "urn:idemkit:payload-mismatch");
        assertThat(another.status()).isEqualTo(201);
        assertThat(another.header("Idempotency-Replayed")).isNull();
        assertThat(runs).hasValue(2);
        assertThat(record("ord-1")).isPresent();
    }

    @Test
    void aClaimOfTheCallersToken_isTheKey_whateverTheOtherClaims() {
        extractors.put(
                BY_REFERENCE,
                request ->
                        request.principal()
                                .filter(Token.class::isInstance)
                                .map(p -> ((Token) p).claims().get("txn")));
        FakeRequest firstToken = withToken("token-1");
        // The client retried with a renewed token: another jti, the same transaction claim.
        FakeRequest renewedToken = withToken("token-2");

        Served first = serve(firstToken, GLOBAL);
        Served retry = serve(renewedToken, GLOBAL);

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
        // The caller's name scopes the key (C5), as with a header key.
        assertThat(memory.find(EffectiveKey.forHttp("t-77", "alice", "POST", PATH))).isPresent();
    }

    @Test
    void aGzipBody_reachesTheExtractorDecoded() throws IOException {
        extractors.put(BY_REFERENCE, ORDER_REFERENCE);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
            out.write(order("ord-9", 1).getBytes(StandardCharsets.UTF_8));
        }

        Served first =
                serve(
                        FakeRequest.of("POST", "orders")
                                .body(compressed.toByteArray(), "application/json")
                                .header("Content-Encoding", "gzip"),
                        GLOBAL);
        Served plain = serve(unkeyed(order("ord-9", 1)), GLOBAL);

        assertThat(first.status()).isEqualTo(201);
        assertThat(plain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void noKeyFound_runsUnprotected_orIsRefusedWhereAKeyIsRequired() {
        extractors.put(BY_REFERENCE, ORDER_REFERENCE);

        Served once = serve(unkeyed(BODY), GLOBAL);
        Served twice = serve(unkeyed(BODY), GLOBAL);
        Served required =
                serve(
                        unkeyed(BODY),
                        "idemkit.key-extractor",
                        BY_REFERENCE,
                        "idemkit.require-key",
                        "true");

        assertThat(once.status()).isEqualTo(201);
        assertThat(twice.status()).isEqualTo(201);
        assertThat(twice.header("Idempotency-Replayed")).isNull();
        assertProblem(required, 400, "urn:idemkit:missing-key");
        assertThat(required.json().getString("detail")).contains("which it takes from the request");
        assertThat(runs).hasValue(2);
    }

    @Test
    void aKeyThatBreaksTheHeadersRules_isA400_thatDoesNotEchoIt() {
        String tooLong = "k".repeat(256);
        for (String bad : List.of("", "ord\u0007", "ord\u0085", tooLong, "ord\uD800")) {
            extractors.put(BY_REFERENCE, request -> Optional.of(bad));

            Served refused = serve(unkeyed(BODY), GLOBAL);

            assertProblem(refused, 400, "urn:idemkit:missing-key");
            assertThat(refused.json().getString("detail"))
                    .startsWith("The idempotency key this endpoint takes from the request");
            if (!bad.isEmpty()) {
                assertThat(refused.text()).doesNotContain(bad);
            }
        }
        assertThat(runs).hasValue(0);
    }

    @Test
    void anExtractorThatThrows_countsAsNoKey_andIsWarnedOfOnce_byTheExceptionsClassOnly() {
        extractors.put(
                BY_REFERENCE,
                request -> {
                    throw new IllegalStateException("card 4111 1111 1111 1111");
                });
        JaxRsPipelineHolder pipeline = new JaxRsPipelineHolder();

        try (CapturedLog log = CapturedLog.of(EndpointKeys.class)) {
            Served first = pipeline.filters.serve(unkeyed(BODY), this::created);
            Served second = pipeline.filters.serve(unkeyed(BODY), this::created);

            assertThat(first.status()).isEqualTo(201);
            assertThat(second.status()).isEqualTo(201);
            assertThat(log.warnings()).hasSize(1);
            assertThat(log.warnings().get(0))
                    .contains(BY_REFERENCE, "java.lang.IllegalStateException")
                    .doesNotContain("4111");
        }
        assertThat(runs).hasValue(2);
    }

    @Test
    void aBodyOverTheCap_reachesTheExtractorAsNone_andTheRequestIsNotProtected() {
        List<Optional<byte[]>> seen = new ArrayList<>();
        extractors.put(
                BY_REFERENCE,
                request -> {
                    seen.add(request.body());
                    return request.header("X-Order-Reference");
                });
        String big = "{\"pad\":\"" + "x".repeat(200) + "\"}";

        Served over =
                serve(
                        unkeyed(big).header("X-Order-Reference", "ord-5"),
                        "idemkit.key-extractor",
                        BY_REFERENCE,
                        "idemkit.max-request-bytes",
                        "64");

        assertThat(seen).containsExactly(Optional.empty());
        assertThat(over.status()).isEqualTo(201);
        assertThat(over.header("Idempotency-Replay-Unavailable")).isEqualTo("request-too-large");
    }

    /** One filter pair for several requests, so that its once-per-endpoint warning shows. */
    private final class JaxRsPipelineHolder {
        final io.idemkit.testsupport.JaxRsPipeline<IdempotencyFilter> filters = filters(GLOBAL);
    }
}
