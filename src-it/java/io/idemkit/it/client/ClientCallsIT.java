package io.idemkit.it.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.client.app.ClientApplication;
import jakarta.json.JsonObject;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
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
class ClientCallsIT extends ClientItSupport {

    @Deployment(testable = false)
    static WebArchive application() {
        return war("client-calls", war -> war.addPackage(ClientApplication.class.getPackage()));
    }

    @Test
    void aReadTimeout_isRetriedWithTheSameKey_andTheServerReplaysTheOneRun() {
        JsonObject result = drive("drive/slow");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isGreaterThanOrEqualTo(2);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("slow")).isEqualTo(1);
    }

    @Test
    void an423InProgress_isWaitedOut_andEndsInTheResult() {
        // The first attempt times out while the server runs it; the retry meets the claim (423,
        // Retry-After: the lease's rest), and the one after that gets the stored result.
        JsonObject result = drive("drive/busy");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isGreaterThanOrEqualTo(3);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("busy")).isEqualTo(1);
    }

    @Test
    void a503WithRetryAfter_isRetried_andTheSecondRunSucceeds() {
        JsonObject result = drive("drive/flaky");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(result.getBoolean("replayed")).isFalse();
        assertThat(runs("flaky")).isEqualTo(2);
        List<String> keys = keys("flaky");
        assertThat(keys).as("the key each attempt was sent with").hasSize(2);
        assertThat(keys.get(0)).isNotBlank();
        assertThat(keys).as("one key for both attempts (C14.3)").containsOnly(keys.get(0));
    }

    @Test
    void a422_isNotRetried() {
        JsonObject result = drive("drive/refused");

        assertThat(result.getInt("status")).isEqualTo(422);
        assertThat(result.getInt("attempts")).isEqualTo(1);
        assertThat(runs("refused")).isEqualTo(1);
    }

    @Test
    void twoCallsRetriedTogether_runTheFirstOnce_byItsOwnKey() {
        JsonObject result = drive("drive/charge-and-ship");

        assertThat(result.getInt("status")).isEqualTo(201);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(runs("once")).isEqualTo(1);
        assertThat(runs("shipments")).isEqualTo(2);
    }

    /**
     * A key the caller sets, made anew inside the retried call (C14.4): the 503's retry would carry
     * a new key, which the server takes for a new charge. The library stops it before it is sent,
     * with its own error; the server ran the request once (the 503). Before, the retry went out
     * with its new key and the charge ran a second time, to a 201.
     */
    @Test
    void aCallersKeyThatChangesBetweenAttempts_isStopped_beforeTheServerRunsItAgain() {
        String outcome = drive("drive/fresh-keys/flaky").getString("outcome");

        assertThat(outcome.lines())
                .as("the failure the caller saw, and its causes")
                .contains("io.idemkit.client.IdempotencyKeyChangedException");
        assertThat(runs("flaky")).as("runs: the 503 only").isEqualTo(1);
        assertThat(keys("flaky")).singleElement().isNotEqualTo("null");
    }
}
