package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import io.idemkit.it.client.ClientApplication;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client half against the server half (C14, C6), in one application on a real server: an
 * {@code @IdempotentOperation} bean calls {@code @Idempotent} resources through a JAX-RS client
 * with {@code IdempotencyClientFeature}, retrying with the injected {@code IdempotentRetry}. The
 * operation runs once however the retries go.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ClientCallsIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "client-calls.war")
                        .addPackage(ClientApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.client.retry.delay=100ms\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String tag;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
    }

    private JsonObject drive(String path) {
        Reply reply = http.postJson("api/drive/" + path + "?tag=" + tag, "{}");
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        try (var reader = Json.createReader(new StringReader(reply.text()))) {
            return reader.readObject();
        }
    }

    private int runs(String kind) {
        return Integer.parseInt(http.get("api/charges/runs/" + kind + "/" + tag).text());
    }

    @Test
    void aReadTimeout_isRetriedWithTheSameKey_andTheServerReplaysTheOneRun() {
        JsonObject result = drive("slow");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isGreaterThanOrEqualTo(2);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("slow")).isEqualTo(1);
    }

    @Test
    void a503WithRetryAfter_isRetried_andTheSecondRunSucceeds() {
        JsonObject result = drive("flaky");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(result.getBoolean("replayed")).isFalse();
        assertThat(runs("flaky")).isEqualTo(2);
    }

    @Test
    void a422_isNotRetried() {
        JsonObject result = drive("refused");

        assertThat(result.getInt("status")).isEqualTo(422);
        assertThat(result.getInt("attempts")).isEqualTo(1);
        assertThat(runs("refused")).isEqualTo(1);
    }

    @Test
    void twoCallsRetriedTogether_runTheFirstOnce_byItsOwnKey() {
        JsonObject result = drive("charge-and-ship");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(runs("once")).isEqualTo(1);
        assertThat(runs("shipments")).isEqualTo(2);
    }
}
