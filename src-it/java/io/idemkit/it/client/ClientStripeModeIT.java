package io.idemkit.it.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.it.client.app.ClientApplication;
import io.idemkit.it.harness.HttpCalls.Reply;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client half against a server of this library in Stripe's dialect ({@code
 * idemkit.compat-mode=stripe}, C6.4): the server answers a duplicate of a call still in progress
 * 409 with {@code Retry-After} and the problem type {@code urn:idemkit:in-progress}, where it
 * otherwise answers 423 ({@link ClientCallsIT}). The client waits that 409 out as it does a 423
 * (C14.5). The same test application as {@link ClientCallsIT}, deployed with the dialect switched
 * on.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ClientStripeModeIT extends ClientItSupport {

    private static final String CHARGE = "{\"amount\":1999}";

    @Deployment(testable = false)
    static WebArchive application() {
        return war(
                "client-stripe",
                war -> war.addPackage(ClientApplication.class.getPackage()),
                "idemkit.compat-mode=stripe\n");
    }

    /**
     * The first attempt outlasts the client's read timeout while the server runs it; the retry is
     * answered 409 in progress, which the client waits out to the stored result: the caller gets
     * the first call's charge, and the server ran it once. Before, the 409 was final: the caller
     * saw a failure for a charge that then succeeded. While the client waits, the test sends the
     * same request with the same key, and is answered what the client's retry was: 409, {@code
     * Retry-After}, {@code urn:idemkit:in-progress}.
     */
    @Test
    void anInProgress409_isWaitedOut_toTheFirstCallsResult() throws Exception {
        CompletableFuture<JsonObject> call =
                CompletableFuture.supplyAsync(() -> drive("drive/busy"));
        await().atMost(Duration.ofSeconds(10)).until(() -> runs("busy") == 1);
        String key = keys("busy").get(0);
        assertThat(key).isNotBlank().isNotEqualTo("null");

        Reply duplicate = http.postKeyed("api/charges/busy", CHARGE, key, tag);
        assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(409);
        assertThat(duplicate.header("Retry-After")).isNotBlank();
        assertThat(duplicate.text()).contains("urn:idemkit:in-progress");

        JsonObject result = call.get(60, TimeUnit.SECONDS);
        assertThat(result.getInt("status")).as(result.toString()).isEqualTo(201);
        assertThat(result.getInt("attempts")).isGreaterThanOrEqualTo(3);
        assertThat(result.getBoolean("replayed")).as("the answer is Stripe's replay").isTrue();
        assertThat(runs("busy")).isEqualTo(1);
        assertThat(keys("busy")).as("the key of each run").containsExactly(key);

        Reply stored = http.postKeyed("api/charges/busy", CHARGE, key, tag);
        assertThat(stored.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(result.getString("body"))
                .as("the charge the caller got is the one the server made")
                .isEqualTo(stored.text());
    }
}
