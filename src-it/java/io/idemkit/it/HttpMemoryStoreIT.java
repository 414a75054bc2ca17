package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.hash.Fingerprint;
import io.idemkit.it.HttpCalls.Reply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTTP scenarios on the in-memory store (C6, C10). */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpMemoryStoreIT extends HttpScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return war("http-memory", "idemkit.store=memory\n");
    }

    @Test
    void crash_recovery_lease_expiry() throws Exception {
        // A store in this JVM dies with it, so the crash is staged: the application claims the
        // request's key with the endpoint's 300 ms lease and never ends the claim, as a server
        // that died right after claiming would. HttpCrashAndRestartIT kills a real server.
        String path = "api/resources/short-lease";
        String fingerprint =
                Fingerprint.forHttp(
                        "POST",
                        base.toURI().getPath() + path,
                        null,
                        BODY_X.getBytes(StandardCharsets.UTF_8),
                        "application/json");
        Reply claimed =
                http.postJson(
                        "api/abandon?leaseMs=300&key="
                                + effectiveKey(key("K6"), path)
                                + "&fingerprint="
                                + fingerprint,
                        "");
        assertThat(claimed.text()).isEqualTo("NEW");
        Reply during = post(path, BODY_X, key("K6"));
        Awaitility.await().pollDelay(Duration.ofMillis(600)).until(() -> true);
        Reply after = post(path, BODY_X, key("K6"));

        assertThat(during.status()).isEqualTo(423);
        assertThat(after.status()).isEqualTo(201);
        assertThat(calls()).isEqualTo(1);
        assertThat(http.get("api/events/" + effectiveKey(key("K6"), path)).text())
                .isEqualTo("idempotency.conflict,idempotency.lease_reclaimed");
    }
}
