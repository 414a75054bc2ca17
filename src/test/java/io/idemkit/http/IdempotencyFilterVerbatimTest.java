package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * What the filter pair sends and hashes as it came (C6.2, C6.9): a replay's stored bytes go to the
 * client without passing the application's writer interceptors again, and a gzip-encoded request
 * body fingerprints like the same body sent plain.
 */
class IdempotencyFilterVerbatimTest extends IdempotencyFilterFixture {

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private static FakeRequest gzipped(String key, byte[] body) {
        return FakeRequest.of("POST", "orders")
                .body(body, "application/json")
                .header("Content-Encoding", "gzip")
                .header("Idempotency-Key", key);
    }

    @Test
    void aReplay_writesTheStoredBytes_withoutRunningTheBodyWriterOrInnerInterceptors() {
        byte[] stored = "stored, already encoded".getBytes(StandardCharsets.UTF_8);
        FakeRequest request = post(KEY, BODY);
        request.setProperty(IdempotencyFilter.REPLAY_BODY, stored);
        // An entity the body writer would write differently: it must not be written at all.
        FakeResponse response = FakeResponse.of(201).entity("written again", "application/json");

        Served served = filters().respond(request, response);

        assertThat(served.body()).isEqualTo(stored);
    }

    @Test
    void aReplay_throughThePipeline_isTheFirstResponsesBytes() {
        Served first = filters().serve(post(KEY, BODY), this::created);
        Served replay = filters().serve(post(KEY, BODY), this::created);

        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(runs).hasValue(1);
    }

    @Test
    void aGzipEncodedBody_fingerprintsLikeThePlainBody() throws Exception {
        Served plain = filters().serve(post(KEY, BODY), this::created);
        Served compressed = filters().serve(gzipped(KEY, gzip(BODY)), this::created);

        assertThat(plain.status()).isEqualTo(201);
        assertThat(compressed.status()).isEqualTo(201);
        assertThat(compressed.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs).hasValue(1);
    }

    @Test
    void aGzipEncodedBodyOfAnotherPayload_isAMismatch() throws Exception {
        filters().serve(post(KEY, BODY), this::created);

        Served other = filters().serve(gzipped(KEY, gzip("{\"item\":\"pen\"}")), this::created);

        assertProblem(other, 422, "urn:idemkit:payload-mismatch");
    }

    @Test
    void aGzipBodyThatDecodesPastTheLimit_runsUnprotected_likeALargeBody() throws Exception {
        byte[] bomb = gzip("{\"pad\":\"" + "a".repeat(4 * 1024 * 1024) + "\"}");
        assertThat(bomb.length).isLessThan(64 * 1024);

        Served served = filters().serve(gzipped(KEY, bomb), this::created);

        assertThat(served.header("Idempotency-Replay-Unavailable")).isEqualTo("request-too-large");
        assertThat(memory.size()).isZero();
    }

    @Test
    void aBodyThatClaimsGzipButIsNot_fingerprintsAsSent() {
        byte[] notGzip = BODY.getBytes(StandardCharsets.UTF_8);

        Served first = filters().serve(gzipped(KEY, notGzip), this::created);
        Served again = filters().serve(gzipped(KEY, notGzip), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
    }
}
