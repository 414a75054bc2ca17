package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A resource whose key the application's extractor bean takes from the JSON body
 * ({@code @Idempotent(keyExtractor = OrderReferenceKey.class)}, C6.1). It runs on every runtime:
 * the body is read before the key, and handed on whole to the runtime's JSON-B, and the extractor
 * is a CDI bean of the WAR that each runtime's bean manager resolves.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpKeyExtractorIT extends HttpScenarioSupport {

    private static final String PATH = "api/resources/keyed-by-body";

    @Deployment(testable = false)
    static WebArchive application() {
        return memoryWar("http-key-extractor", "idemkit.store=memory\n");
    }

    private Reply send(String reference, String name) {
        String body =
                reference == null
                        ? "{\"name\":\"" + name + "\"}"
                        : "{\"reference\":\"" + reference + "\",\"name\":\"" + name + "\"}";
        return http.postJson(PATH, body, TAG, tag);
    }

    @Test
    void theKeyComesFromTheBody_aDuplicateReplays_anotherBodyWithItIsAMismatch() {
        String reference = key("order");

        Reply first = send(reference, "x");
        Reply duplicate = send(reference, "x");
        Reply changed = send(reference, "y");
        Reply unkeyed = send(null, "x");

        assertThat(first.status()).isEqualTo(201);
        // The resource read the whole body after the extractor did.
        assertThat(first.text()).contains("\"x\"");
        assertThat(duplicate.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(duplicate.text()).isEqualTo(first.text());
        assertThat(changed.status()).isEqualTo(422);
        assertThat(unkeyed.status()).isEqualTo(201);
        assertThat(unkeyed.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(2);
    }
}
