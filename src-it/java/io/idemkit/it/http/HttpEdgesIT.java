package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OnRuntimes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bad input at the edges of a keyed request, over a real socket (C6.4, C6.9): a query that {@code
 * java.net.URI} refuses, which Open Liberty's {@code UriInfo.getRequestUri()} throws on, is
 * fingerprinted as sent, read from the servlet request; a body shorter than its {@code
 * Content-Length}, on a connection the client half-closes, is a 400 problem, never a 500, and
 * claims nothing.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because =
                "measured on Open Liberty, whose request URI throws on a malformed escape;"
                        + " what WildFly's and Payara Micro's listeners answer to these bytes"
                        + " has not been measured")
class HttpEdgesIT extends HttpScenarioSupport {

    @Deployment(testable = false)
    static WebArchive application() {
        return memoryWar("http-edges", "idemkit.store=memory\n");
    }

    private Reply send(String query, String key, byte[] body, long declaredLength) {
        List<String> lines =
                key == null
                        ? List.of("Content-Type: application/json", TAG + ": " + tag)
                        : List.of(
                                "Content-Type: application/json",
                                TAG + ": " + tag,
                                KEY + ": " + key);
        String target = base.getPath() + "api/resources" + (query == null ? "" : "?" + query);
        return http.rawTarget("POST", target, lines, body, declaredLength);
    }

    private Reply send(String query, String key) {
        byte[] body = BODY_X.getBytes(StandardCharsets.UTF_8);
        return send(query, key, body, body.length);
    }

    @Test
    void malformedEscapeInTheQuery_isFingerprintedAsSent_neverBlamedOnTheKey() {
        Reply first = send("f=%zz", key("Q1"));
        Reply replay = send("f=%zz", key("Q1"));
        Reply otherQuery = send("f=%zy", key("Q1"));
        Reply unkeyed = send("f=%zz", null);

        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.text()).isEqualTo(first.text());
        // Another raw query under the same key is another request: 422, not a replay.
        assertThat(otherQuery.status()).isEqualTo(422);
        assertThat(otherQuery.text())
                .contains("urn:idemkit:payload-mismatch")
                .doesNotContain("%zy")
                .doesNotContain("api/resources");
        assertThat(unkeyed.status()).isEqualTo(201);
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void bodyShorterThanItsContentLength_halfClosed_400IncompleteBody_andNothingIsHeld() {
        byte[] part = "{\"name\": ".getBytes(StandardCharsets.UTF_8);

        Reply cut = send(null, key("B1"), part, 100);
        Reply whole = send(null, key("B1"));

        assertThat(cut.status()).isEqualTo(400);
        assertThat(cut.header("Content-Type")).startsWith("application/problem+json");
        assertThat(cut.text())
                .contains("urn:idemkit:incomplete-body")
                .doesNotContain("name")
                .doesNotContain("Connection closed");
        // Nothing was claimed: the whole request, under the same key, runs at once.
        assertThat(whole.status()).isEqualTo(201);
        assertThat(whole.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(1);
    }
}
