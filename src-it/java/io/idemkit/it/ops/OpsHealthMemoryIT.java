package io.idemkit.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.http.HttpScenarios;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The readiness check on the in-memory store: its size against {@code idemkit.memory.max-size}, and
 * still UP once it is full, where a new key evicts the oldest result (C10.2, C10.5).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@EnabledIfSystemProperty(
        named = "arquillian.launch",
        matches = "liberty-ops|payara-micro|wildfly",
        disabledReason = OpsHealth.ON_THE_OPS_SERVER)
class OpsHealthMemoryIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return HttpScenarios.war(
                "ops-health-memory", "idemkit.store=memory\nidemkit.memory.max-size=2\n");
    }

    @ArquillianResource URL base;

    @Test
    void inMemoryStoreFills_evictsTheOldestResult_andStaysReady() throws Exception {
        OpsHealth health = new OpsHealth(base);
        HttpCalls http = new HttpCalls(base.toURI());
        String tag = UUID.randomUUID().toString();

        OpsHealth.Answer empty =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(health::ready, a -> a.status() == 200);
        JsonObject data = empty.check("idemkit-store").orElseThrow().getJsonObject("data");
        assertThat(data.getString("store")).isEqualTo("memory");
        assertThat(OpsHealth.number(data, "size")).isZero();
        assertThat(OpsHealth.number(data, "maxSize")).isEqualTo(2);

        for (int i = 0; i < 3; i++) {
            assertThat(
                            http.postJson(
                                            "api/resources",
                                            HttpScenarios.BODY_X,
                                            HttpScenarios.KEY,
                                            "fill-" + i + "-" + tag,
                                            HttpScenarios.TAG,
                                            tag)
                                    .status())
                    .isEqualTo(201);
        }

        OpsHealth.Answer full = health.ready();
        JsonObject check = full.check("idemkit-store").orElseThrow();
        assertThat(full.status()).isEqualTo(200);
        assertThat(check.getString("status")).isEqualTo("UP");
        assertThat(OpsHealth.number(check.getJsonObject("data"), "size")).isEqualTo(2);
        assertThat(OpsHealth.number(check.getJsonObject("data"), "evictions")).isEqualTo(1);
        assertThat(check.getJsonObject("data").containsKey("error")).isFalse();
        assertThat(health.live().status()).isEqualTo(200);
    }
}
