package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.cdi.TestConfig;
import io.idemkit.testsupport.RunningCdi;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.faulttolerance.FaultToleranceExtension;
import io.smallrye.faulttolerance.metrics.MetricsIntegration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.Client;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @IdempotentOperation} with MicroProfile Fault Tolerance's real {@code @Retry} (SmallRye
 * Fault Tolerance on Weld; C14.3): on the same method the retries keep the keys; on a caller each
 * retry is a new operation, unless its key is chosen.
 */
class FaultToleranceRetryTest {

    private final ScriptedServer server = new ScriptedServer();
    private TestConfig config;
    private Client client;
    private WeldContainer weld;

    @ApplicationScoped
    public static class Payments {
        @IdempotentOperation
        @Retry(maxRetries = 3, delay = 0, jitter = 0)
        public void charge() {
            OperationBeans.post("payments");
            OperationBeans.maybeFail();
        }

        @IdempotentOperation
        public void chargeOnce() {
            OperationBeans.post("payments");
            OperationBeans.maybeFail();
        }

        @IdempotentOperation
        public void chargeOrder(@OperationKey String orderId) {
            OperationBeans.post("payments");
            OperationBeans.maybeFail();
        }
    }

    /** Fault Tolerance on the caller: outside the operation. */
    @ApplicationScoped
    public static class Caller {
        @Inject Payments payments;

        @Retry(maxRetries = 3, delay = 0, jitter = 0)
        public void charge() {
            payments.chargeOnce();
        }

        @Retry(maxRetries = 3, delay = 0, jitter = 0)
        public void chargeOrder(String orderId) {
            payments.chargeOrder(orderId);
        }
    }

    @BeforeEach
    void start() {
        RunningCdi.install();
        config = TestConfig.of(Map.of());
        client = server.client();
        OperationBeans.base = client.target("http://shop.example/api");
        OperationBeans.failures.set(0);
        weld =
                new Weld()
                        .disableDiscovery()
                        .containerId(null)
                        .addExtension(
                                // No metrics runtime here: it would look for a Meter bean, as
                                // the OpenTelemetry API is on the test class path.
                                new FaultToleranceExtension(MetricsIntegration.NOOP))
                        .addExtension(new ConfigExtension())
                        .addBeanClasses(
                                OperationInterceptor.class,
                                AttemptInterceptor.class,
                                Payments.class,
                                Caller.class)
                        .initialize();
    }

    @AfterEach
    void stop() {
        weld.shutdown();
        client.close();
        config.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private List<String> keys() {
        return server.keys();
    }

    @Test
    void retryOnTheOperationMethod_sendsEveryAttemptWithTheFirstKey() {
        OperationBeans.failures.set(3);

        weld.select(Payments.class).get().charge();

        assertThat(keys()).hasSize(4).containsOnly(keys().get(0));
    }

    @Test
    void retryOnTheOperationMethod_thatRunsOut_neverSentAnotherKey() {
        OperationBeans.failures.set(10);

        assertThatThrownBy(() -> weld.select(Payments.class).get().charge())
                .isInstanceOf(IllegalStateException.class);
        assertThat(keys()).hasSize(4).containsOnly(keys().get(0));
    }

    @Test
    void retryOnACaller_makesEachAttemptANewOperation() {
        OperationBeans.failures.set(2);

        weld.select(Caller.class).get().charge();

        assertThat(keys()).hasSize(3).doesNotHaveDuplicates();
    }

    @Test
    void retryOnACaller_keepsTheKey_whenTheOperationKeyIsChosen() {
        OperationBeans.failures.set(2);

        weld.select(Caller.class).get().chargeOrder("order-5");

        assertThat(keys()).hasSize(3).containsOnly(keys().get(0));
    }
}
