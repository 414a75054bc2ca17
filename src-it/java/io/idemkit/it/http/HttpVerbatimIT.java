package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.gzip.GzipCoding;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replays sent as stored, and compressed requests fingerprinted as plain ones (C6.2, C6.9), in an
 * application with its own gzip writer and reader interceptors: the replay's bytes are the first
 * response's bytes, compressed once, not twice; a gzip-encoded request under the key of a plain one
 * replays it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because = "run on Open Liberty; the filter pair is the same on every runtime")
class HttpVerbatimIT extends HttpScenarioSupport {

    @Deployment(testable = false)
    static WebArchive application() {
        return memoryWar("http-verbatim", "idemkit.store=memory\n").addClass(GzipCoding.class);
    }

    private static String gunzip(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    @Test
    void aCompressedResponse_isReplayedAsStored_compressedOnce() throws Exception {
        Reply first = post("api/resources", BODY_X, key("Z1"), "Accept-Encoding", "gzip");
        Reply replay = post("api/resources", BODY_X, key("Z1"), "Accept-Encoding", "gzip");

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Content-Encoding")).isEqualTo("gzip");
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.headers().get("content-encoding")).containsExactly("gzip");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(gunzip(replay.body())).isEqualTo(gunzip(first.body())).contains("\"name\"");
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void aGzipEncodedRequest_underThePlainRequestsKey_isReplayed() throws Exception {
        Reply plain = post("api/resources", BODY_X, key("Z2"));
        Reply compressed =
                http.raw(
                        "POST",
                        "api/resources",
                        List.of(
                                "Content-Type: application/json",
                                "Content-Encoding: gzip",
                                TAG + ": " + tag,
                                KEY + ": " + key("Z2")),
                        gzip(BODY_X));

        assertThat(plain.status()).isEqualTo(201);
        assertThat(compressed.status()).isEqualTo(201);
        assertThat(compressed.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }
}
