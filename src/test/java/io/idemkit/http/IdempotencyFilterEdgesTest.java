package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.hash.Fingerprint;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Bad input at the edges of the request, as a fuzzing client sends it: a request URI the runtime
 * cannot parse, a body shorter than its {@code Content-Length}, a key with a C1 control character.
 * None of them is blamed on a valid key, echoed in a problem, or turned into a 500 (C6.1, C6.4).
 */
class IdempotencyFilterEdgesTest extends IdempotencyFilterFixture {

    private static final String QUERY = "f=ok";

    /** A body whose stream fails after its first bytes, as a half-closed connection's does. */
    private static InputStream failingAfter(String start) {
        InputStream failing =
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("Connection closed: Read failed");
                    }
                };
        return new SequenceInputStream(
                new ByteArrayInputStream(start.getBytes(StandardCharsets.UTF_8)), failing);
    }

    @Test
    void requestUriTheRuntimeCannotParse_withAKey_400MalformedQuery_neverTheKeyNorTheUrl() {
        FakeRequest request =
                FakeRequest.of("POST", "orders?" + QUERY)
                        .json(BODY)
                        .header("Idempotency-Key", KEY)
                        .unparsableRequestUri();

        Served served = filters().serve(request, this::created);

        // No Servlet API request to read the raw query from here, so the query is refused.
        assertProblem(served, 400, "urn:idemkit:malformed-query");
        assertThat(served.text())
                .doesNotContain("missing-key")
                .doesNotContain("orders")
                .doesNotContain(QUERY)
                .doesNotContain("localhost")
                .doesNotContain("Malformed escape");
        assertThat(runs).hasValue(0);
        assertThat(memory.size()).isZero();
    }

    @Test
    void requestUriTheRuntimeCannotParse_withoutAKey_runsAsWithoutTheLibrary() {
        FakeRequest request =
                FakeRequest.of("POST", "orders?" + QUERY).json(BODY).unparsableRequestUri();

        Served served = filters().serve(request, this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(runs).hasValue(1);
    }

    @Test
    void unparsableTarget_readFromTheFallback_isFingerprintedAsSent() {
        FakeRequest request = FakeRequest.of("POST", "orders?" + QUERY).unparsableRequestUri();

        RequestTarget target =
                RequestTarget.of(
                                request.getUriInfo(),
                                () -> Optional.of(new RequestTarget(PATH, "f=%zz&a=1")))
                        .orElseThrow();

        assertThat(target).isEqualTo(new RequestTarget(PATH, "f=%zz&a=1"));
        // The reference keeps a malformed escape literal (parse_qsl) and quotes its %.
        assertThat(Fingerprint.forHttp("POST", PATH, target.rawQuery(), new byte[0], null))
                .isEqualTo(Fingerprint.forHttp("POST", PATH, "a=1&f=%25zz", new byte[0], null));
    }

    @Test
    void parsableTarget_isTheRequestUrisRawPathAndQuery_theFallbackIsNotAsked() {
        FakeRequest request = FakeRequest.of("POST", "orders?b=%7E&a=x+y");

        RequestTarget target =
                RequestTarget.of(
                                request.getUriInfo(),
                                () -> {
                                    throw new AssertionError("asked the fallback");
                                })
                        .orElseThrow();

        assertThat(target).isEqualTo(new RequestTarget(PATH, "b=%7E&a=x+y"));
    }

    @Test
    void validQuery_isFingerprintedAsBefore() {
        Served served =
                filters()
                        .serve(
                                FakeRequest.of("POST", "orders?b=2&a=%7E")
                                        .json(BODY)
                                        .header("Idempotency-Key", KEY),
                                this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(record(KEY).orElseThrow().fingerprint())
                .isEqualTo(
                        Fingerprint.forHttp(
                                "POST",
                                PATH,
                                "b=2&a=%7E",
                                BODY.getBytes(StandardCharsets.UTF_8),
                                "application/json"));
    }

    @Test
    void queryTheReferenceCannotEncode_400MalformedQuery() {
        FakeRequest request = post(KEY, BODY);
        request.setRequestUri(URI.create("http://localhost/shop/api/orders?f=\uD800"));

        Served served = filters().serve(request, this::created);

        assertProblem(served, 400, "urn:idemkit:malformed-query");
        assertThat(runs).hasValue(0);
    }

    @Test
    void bodyShorterThanItsContentLength_onAFailingStream_400IncompleteBody_nothingClaimed() {
        FakeRequest request =
                FakeRequest.of("POST", "orders")
                        .entity(failingAfter("{\"item\":"), 100)
                        .header("Idempotency-Key", KEY);

        Served served = filters().serve(request, this::created);

        assertProblem(served, 400, "urn:idemkit:incomplete-body");
        assertThat(served.text()).doesNotContain("item").doesNotContain("Connection closed");
        assertThat(runs).hasValue(0);
        assertThat(memory.size()).isZero();
        assertThat(request.getProperty(IdempotencyFilter.EXCHANGE)).isNull();
    }

    @Test
    void bodyThatEndsBeforeItsContentLength_isReadAsItArrived() {
        // A stream that ends early, rather than failing, is the body the runtime has.
        FakeRequest request =
                FakeRequest.of("POST", "orders")
                        .entity(
                                new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)),
                                100)
                        .header("Idempotency-Key", KEY);

        Served served = filters().serve(request, this::created);

        assertThat(served.status()).isEqualTo(201);
        assertThat(record(KEY)).isPresent();
        assertThat(runs).hasValue(1);
    }

    @Test
    void keyWithAC1ControlCharacter_400MissingKey_andTheResourceDoesNotRun() {
        String nel =
                new String(
                        "a\u0085b".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);

        Served served = filters().serve(post(nel, BODY), this::created);

        assertProblem(served, 400, "urn:idemkit:missing-key");
        assertThat(served.json().getString("detail")).contains("control character");
        assertThat(runs).hasValue(0);
    }
}
