package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idemkit.health.StoreReadinessCheck;
import io.idemkit.testsupport.PlainHealthResponses;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The readiness check's registration on OpenWebBeans, with the MicroProfile Health API on the class
 * path. A health runtime finds the checks from a portable extension: TomEE's {@code
 * MPHealthCDIExtension} selects every {@code @Readiness HealthCheck} during {@code
 * AfterDeploymentValidation} and keeps the instances for its endpoint. So the check must be a
 * resolvable {@code @Readiness} bean, creatable and callable at that moment, with TomEE's contexts
 * (no {@code @Singleton} context yet, see {@link SingletonContextAfterDeployment}), answering
 * {@code DOWN} until the application has started; the deployment must not fail because of it.
 */
class HealthRegistrationTest {

    private final OwbDeployment deployment = new OwbDeployment();
    private MongoServer mongo;

    @BeforeAll
    static void healthRuntime() {
        PlainHealthResponses.install();
    }

    @AfterEach
    void undeploy() {
        deployment.close();
        if (mongo != null) {
            mongo.shutdownNow();
        }
    }

    @Test
    void healthApiPresent_readinessCheckIsOneResolvableReadinessBean_andNoLivenessCheck() {
        SeContainer owb = deployment.start();

        assertThat(owb.select(HealthCheck.class, Readiness.Literal.INSTANCE).isResolvable())
                .isTrue();
        assertThat(owb.select(HealthCheck.class, Liveness.Literal.INSTANCE).isUnsatisfied())
                .isTrue();
        HealthCheckResponse response =
                owb.select(HealthCheck.class, Readiness.Literal.INSTANCE).get().call();
        assertThat(response.getName()).isEqualTo(StoreReadinessCheck.NAME);
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(response.getData().orElseThrow()).containsEntry("store", "memory");
    }

    @Test
    void healthExtension_createsTheCheckDuringAfterDeploymentValidation_andCallsItLater() {
        HealthExtension health = new HealthExtension(false);

        deployment.with(health).start();

        assertThat(health.problems).isEmpty();
        assertThat(health.readiness).hasSize(1);
        HealthCheckResponse response = health.readiness.get(0).call();
        assertThat(response.getName()).isEqualTo(StoreReadinessCheck.NAME);
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(response.getData().orElseThrow()).containsEntry("store", "memory");
    }

    @Test
    void
            healthExtension_callingTheCheckDuringAfterDeploymentValidation_getsDownUntilStartedThenUp() {
        HealthExtension health = new HealthExtension(true);

        deployment.with(health).start();

        // Readiness before the application has started is "not ready", never an exception that
        // would fail the health runtime's extension and with it the deployment.
        assertThat(health.problems).isEmpty();
        assertThat(health.answers).hasSize(1);
        HealthCheckResponse early = health.answers.get(0);
        assertThat(early.getName()).isEqualTo(StoreReadinessCheck.NAME);
        assertThat(early.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat((String) early.getData().orElseThrow().get("error")).contains("not started");
        HealthCheckResponse started = health.readiness.get(0).call();
        assertThat(started.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(started.getData().orElseThrow()).containsEntry("store", "memory");
    }

    @Test
    void mongoStore_theCheckTheHealthExtensionKeeps_isUpThenDownWhenTheServerStops() {
        mongo = new MongoServer(new MemoryBackend());
        mongo.bind("127.0.0.1", 0);
        deployment
                .set(
                        "idemkit.mongo.uri",
                        "mongodb://127.0.0.1:" + mongo.getLocalAddress().getPort())
                // Short enough for the DOWN probe, long enough for a first round trip on a busy
                // machine (500 ms was missed there once).
                .set("idemkit.mongo.timeout", "2s");
        HealthExtension health = new HealthExtension(false);
        deployment.with(health).start();
        assertThat(health.problems).isEmpty();
        assertThat(health.readiness).hasSize(1);
        HealthCheck check = health.readiness.get(0);

        HealthCheckResponse up = check.call();
        mongo.shutdownNow();
        mongo = null;
        HealthCheckResponse down = check.call();

        assertThat(up.getStatus()).as("%s", up.getData()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(up.getData().orElseThrow()).containsEntry("store", "mongodb");
        assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat((String) down.getData().orElseThrow().get("error"))
                .contains("cannot serve claims");
    }

    /**
     * What a MicroProfile Health runtime on OpenWebBeans does (TomEE's {@code
     * MPHealthCDIExtension}): at {@code AfterDeploymentValidation}, it creates every readiness
     * check and keeps it. Problems are kept, not thrown, so that the test can name them.
     */
    public static class HealthExtension implements Extension {
        final List<HealthCheck> readiness = new ArrayList<>();
        final List<HealthCheckResponse> answers = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        private final boolean callAtOnce;

        HealthExtension(boolean callAtOnce) {
            this.callAtOnce = callAtOnce;
        }

        void collect(@Observes AfterDeploymentValidation event, BeanManager beans) {
            try {
                for (HealthCheck check :
                        beans.createInstance()
                                .select(HealthCheck.class, Readiness.Literal.INSTANCE)) {
                    readiness.add(check);
                    if (callAtOnce) {
                        answers.add(check.call());
                    }
                }
            } catch (RuntimeException e) {
                problems.add(e.getClass().getName() + ": " + e.getMessage());
            }
        }
    }
}
