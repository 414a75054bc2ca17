package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OnRuntimes;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where a request's key comes from (C6.1, C6.9): a resource whose key comes from another header and
 * whose fingerprint takes a request header ({@code @Idempotent(keyHeader = "X-Request-Key",
 * fingerprintHeaders = "Currency")}), and a request without a key where none is required (the
 * default; the stores' scenarios require one).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because = "run on Open Liberty; the filter pair is the same on every runtime")
class HttpKeySourceIT extends HttpScenarioSupport {

    private static final String PATH = "api/resources/keyed-elsewhere";

    @Deployment(testable = false)
    static WebArchive application() {
        return memoryWar("http-key-source", "idemkit.store=memory\n");
    }

    private Reply send(String currency) {
        return http.postJson(
                PATH, BODY_X, TAG, tag, "X-Request-Key", key("K1"), "Currency", currency);
    }

    @Test
    void theKeyComesFromItsHeader_andTheCurrencyEntersTheFingerprint() {
        Reply first = send("EUR");
        Reply replay = send("EUR");
        Reply otherCurrency = send("USD");
        Reply idempotencyKeyOnly = post(PATH, BODY_X, key("K1"), "Currency", "EUR");

        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.text()).isEqualTo(first.text());
        assertThat(otherCurrency.status()).isEqualTo(422);
        // Idempotency-Key is no key here: the request runs unprotected.
        assertThat(idempotencyKeyOnly.status()).isEqualTo(201);
        assertThat(idempotencyKeyOnly.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void noKey_runsUnprotected() {
        Reply first = http.postJson("api/resources", BODY_X, TAG, tag);
        Reply second = http.postJson("api/resources", BODY_X, TAG, tag);

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }
}
