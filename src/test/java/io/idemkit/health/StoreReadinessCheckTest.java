package io.idemkit.health;

import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.testsupport.PlainHealthResponses;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The readiness check on Weld: registered when the Health API is there, and its data. */
class StoreReadinessCheckTest {

    private final TestDeployment deployment = new TestDeployment();
    private MongoServer mongo;

    @BeforeAll
    static void healthRuntime() {
        PlainHealthResponses.install();
    }

    @AfterEach
    void shutDown() {
        deployment.close();
        if (mongo != null) {
            mongo.shutdownNow();
        }
    }

    private static HealthCheckResponse readiness(WeldContainer weld) {
        return weld.select(HealthCheck.class, Readiness.Literal.INSTANCE).get().call();
    }

    /** A full store evicts or refuses, but stays ready (C10.5). */
    @Test
    void inMemoryStore_reportsItsSize_andStaysUpWhenFull() {
        deployment.set("idemkit.memory.max-size", "1");
        WeldContainer weld = deployment.start();

        HealthCheckResponse empty = readiness(weld);
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        weld.select(IdempotencyEngine.class)
                .get()
                .admit(new Operation("f".repeat(64), "fp", 1, config.defaults(), "http"));
        HealthCheckResponse full = readiness(weld);

        assertThat(empty.getName()).isEqualTo("idemkit-store");
        assertThat(empty.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(empty.getData().orElseThrow())
                .containsEntry("store", "memory")
                .containsEntry("size", 0L)
                .containsEntry("maxSize", 1L);
        assertThat(full.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(full.getData().orElseThrow())
                .containsEntry("size", 1L)
                .containsEntry("maxBytes", 64L * 1024 * 1024)
                .containsEntry("evictions", 0L)
                .containsEntry("refusals", 0L)
                .doesNotContainKey("error");
    }

    @Test
    void mongoStore_upWithTheClockOffset_downWhenTheServerStops() {
        mongo = new MongoServer(new MemoryBackend());
        int port = mongo.bind().getPort();
        deployment
                .set("idemkit.mongo.uri", "mongodb://127.0.0.1:" + port)
                .set("idemkit.mongo.timeout", "2s");
        WeldContainer weld = deployment.start();

        HealthCheckResponse up = readiness(weld);
        mongo.shutdownNow();
        mongo = null;
        HealthCheckResponse down = readiness(weld);

        Map<String, Object> data = up.getData().orElseThrow();
        assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(data).containsEntry("store", "mongodb");
        assertThat((Long) data.get("clockOffsetMillis")).isBetween(-1_000L, 1_000L);
        assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat((String) down.getData().orElseThrow().get("error"))
                .contains("cannot serve claims");
    }

    @Test
    void theCheckIsReadinessOnly() {
        WeldContainer weld = deployment.start();

        assertThat(weld.select(HealthCheck.class, Liveness.Literal.INSTANCE).isUnsatisfied())
                .isTrue();
    }
}
