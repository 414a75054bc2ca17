package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.app.ResourcesResource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Only the named fields of a JSON body enter the fingerprint (C6.11): a client that regenerates a
 * nonce inside the body gets its first response replayed, and a changed named field is a payload
 * mismatch. Named by the annotation ({@code @Idempotent(fingerprintFields = {"amount",
 * "order.id"})}) and by a per-method key in the application's configuration.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because = "run on Open Liberty; the filter pair is the same on every runtime")
class HttpBodyFieldsIT extends HttpScenarioSupport {

    private static final String BY_ANNOTATION = "api/resources/fields";
    private static final String BY_KEY = "api/resources/fields-by-key";

    @Deployment(testable = false)
    static WebArchive application() {
        return memoryWar(
                "http-body-fields",
                "idemkit.store=memory\n"
                        + ResourcesResource.class.getName()
                        + "/fieldsByKey/Idempotent/fingerprintFields=amount\n");
    }

    private static String charge(int amount, String order, String nonce) {
        return "{\"amount\": "
                + amount
                + ", \"order\": {\"id\": \""
                + order
                + "\"}, \"nonce\": \""
                + nonce
                + "\"}";
    }

    @Test
    void aRetryWithANewNonce_replaysTheStoredBody_aChangedNamedFieldIsAMismatch() {
        Reply first = post(BY_ANNOTATION, charge(100, "o1", "n-1"), key("F1"));
        Reply retry = post(BY_ANNOTATION, charge(100, "o1", "n-2"), key("F1"));
        Reply otherAmount = post(BY_ANNOTATION, charge(200, "o1", "n-3"), key("F1"));
        Reply otherOrder = post(BY_ANNOTATION, charge(100, "o2", "n-4"), key("F1"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.has("Idempotency-Replayed")).isFalse();
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(retry.text()).isEqualTo(first.text()).contains("n-1").doesNotContain("n-2");
        assertMismatch(otherAmount);
        assertMismatch(otherOrder);
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void fieldsNamedByAPerMethodKey_workTheSameWay() {
        Reply first = post(BY_KEY, charge(100, "o1", "n-1"), key("F2"));
        // order.id is not named here: another order is the same request.
        Reply retry = post(BY_KEY, charge(100, "o9", "n-2"), key("F2"));
        Reply otherAmount = post(BY_KEY, charge(101, "o1", "n-1"), key("F2"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(retry.text()).isEqualTo(first.text());
        assertMismatch(otherAmount);
        assertThat(calls()).isEqualTo(1);
    }

    private static void assertMismatch(Reply reply) {
        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
        assertThat(reply.text()).contains("urn:idemkit:payload-mismatch");
    }
}
