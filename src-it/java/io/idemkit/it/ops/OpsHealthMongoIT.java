package io.idemkit.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.http.HttpScenarios;
import jakarta.json.JsonObject;
import java.net.URL;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The readiness check {@code idemkit-store} on Open Liberty with {@code mpHealth-4.0}, on the
 * MongoDB store: UP with the measured clock offset; DOWN while the MongoDB-wire server is stopped,
 * while liveness stays UP; UP again when it returns, without a restart. This class sends no
 * idempotent requests (the telemetry IT counts the {@code mongodb} operations of the server).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@EnabledIfSystemProperty(
        named = "arquillian.launch",
        matches = "liberty-ops|payara-micro|wildfly",
        disabledReason = OpsHealth.ON_THE_OPS_SERVER)
class OpsHealthMongoIT {

    private static final int PORT = TestPorts.next();
    private static MongoServer mongo = ItMongo.start(PORT);

    @Deployment(testable = false)
    static WebArchive application() {
        return HttpScenarios.war(
                "ops-health-mongo",
                "idemkit.mongo.uri=mongodb://127.0.0.1:"
                        + PORT
                        + "\nidemkit.mongo.database=it_ops_health\nidemkit.mongo.timeout=1s\n");
    }

    @AfterAll
    static void stopMongo() {
        mongo.shutdownNow();
    }

    @ArquillianResource URL base;

    @Test
    void mongoStopsAndReturns_readinessGoesDownAndUp_livenessStaysUp() throws Exception {
        OpsHealth health = new OpsHealth(base);

        OpsHealth.Answer up =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(health::ready, a -> a.status() == 200);
        JsonObject check = up.check("idemkit-store").orElseThrow();
        assertThat(check.getString("status")).isEqualTo("UP");
        assertThat(check.getJsonObject("data").getString("store")).isEqualTo("mongodb");
        // Same machine, same clock: the measured offset is small, and it is there.
        assertThat(OpsHealth.number(check.getJsonObject("data"), "clockOffsetMillis"))
                .isBetween(-1_000L, 1_000L);

        mongo.shutdownNow();
        OpsHealth.Answer down =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(health::ready, a -> a.status() == 503);
        JsonObject downCheck = down.check("idemkit-store").orElseThrow();
        assertThat(down.overall()).isEqualTo("DOWN");
        assertThat(downCheck.getString("status")).isEqualTo("DOWN");
        assertThat(downCheck.getJsonObject("data").getString("store")).isEqualTo("mongodb");
        assertThat(downCheck.getJsonObject("data").getString("error"))
                .contains("cannot serve claims");
        OpsHealth.Answer live = health.live();
        assertThat(live.status()).isEqualTo(200);
        assertThat(live.overall()).isEqualTo("UP");
        assertThat(live.check("idemkit-store")).isEmpty();

        mongo = ItMongo.start(PORT);
        OpsHealth.Answer back =
                await().atMost(Duration.ofSeconds(30))
                        .ignoreExceptions()
                        .until(health::ready, a -> a.status() == 200);
        assertThat(back.check("idemkit-store").orElseThrow().getString("status")).isEqualTo("UP");
    }
}
