package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.cdi.TestConfig;
import io.idemkit.testsupport.RunningCdi;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.faulttolerance.FaultToleranceExtension;
import io.smallrye.faulttolerance.metrics.MetricsIntegration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.Client;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
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

    /**
     * {@code @Asynchronous @Timeout @Retry} over a slow send: the timeout fires while attempt 1 has
     * not sent its request yet, attempt 1 ignores the interrupt and sends it late, after attempt 2
     * sent its own.
     */
    @ApplicationScoped
    public static class SlowPayments {
        static final AtomicInteger attempts = new AtomicInteger();
        static volatile CountDownLatch retried = new CountDownLatch(1);

        @IdempotentOperation
        @Asynchronous
        @Timeout(1500)
        @Retry(maxRetries = 1, delay = 0, jitter = 0)
        public CompletionStage<String> charge() {
            if (attempts.incrementAndGet() == 1) {
                awaitUninterruptibly(retried); // slow to send, deaf to the timeout's interrupt
            } else {
                retried.countDown();
            }
            OperationBeans.post("payments");
            return CompletableFuture.completedFuture("charged");
        }

        private static void awaitUninterruptibly(CountDownLatch latch) {
            boolean interrupted = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (latch.getCount() > 0 && System.nanoTime() < deadline) {
                try {
                    latch.await(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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
                                SlowPayments.class,
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
    void asynchronousTimeoutRetry_theLateFirstRequestAndTheRetrysCarryOneKey() throws Exception {
        SlowPayments.attempts.set(0);
        SlowPayments.retried = new CountDownLatch(1);

        String result =
                weld.select(SlowPayments.class)
                        .get()
                        .charge()
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);

        assertThat(result).isEqualTo("charged");
        await().atMost(Duration.ofSeconds(10)).until(() -> keys().size() == 2);
        assertThat(SlowPayments.attempts).hasValue(2);
        assertThat(keys())
                .as("the retry's request, then attempt 1's late one")
                .containsOnly(keys().get(0));
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
