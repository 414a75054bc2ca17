package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.client.OperationBeans.Checkout;
import io.idemkit.client.OperationBeans.LikeAsynchronousRetryInterceptor;
import io.idemkit.client.OperationBeans.LikeRetryInterceptor;
import io.idemkit.client.OperationBeans.MisplacedKey;
import io.idemkit.client.OperationBeans.RetryingCaller;
import io.idemkit.client.OperationBeans.Shipping;
import io.idemkit.client.OperationBeans.TwoKeys;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.ws.rs.client.Client;
import java.util.List;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @IdempotentOperation} on Weld (C14.1, C14.3): one operation per call, its keys kept by a
 * retry interceptor at Fault Tolerance's priority, nested calls joining it, chosen keys, and the
 * deployment checks.
 */
class OperationInterceptorTest {

    private final TestDeployment deployment = new TestDeployment();
    private final ScriptedServer server = new ScriptedServer();
    private Client client;

    @BeforeEach
    void setUp() {
        deployment.set("idemkit.store", "memory").set("idemkit.scope-mode", "single-tenant");
        client = server.client();
        OperationBeans.base = client.target("http://shop.example/api");
        OperationBeans.failures.set(0);
    }

    @AfterEach
    void tearDown() {
        deployment.close();
        client.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private WeldContainer start() {
        return deployment.start(
                LikeRetryInterceptor.class,
                LikeAsynchronousRetryInterceptor.class,
                Checkout.class,
                Shipping.class,
                RetryingCaller.class);
    }

    private List<String> keysTo(String path) {
        return server.sent().stream()
                .filter(s -> s.path().endsWith(path))
                .map(ScriptedServer.Sent::key)
                .toList();
    }

    @Test
    void aRetryAtFaultTolerancesPriority_repeatsTheCallWithItsKeys() {
        Checkout checkout = start().select(Checkout.class).get();
        OperationBeans.failures.set(2);

        checkout.checkout();

        assertThat(keysTo("payments")).hasSize(3).containsOnly(keysTo("payments").get(0));
        assertThat(keysTo("shipments")).hasSize(1).doesNotContain(keysTo("payments").get(0));
    }

    @Test
    void attemptsOnThreadsOfTheirOwn_asAsynchronousRuns_keepTheKeysToo() {
        Checkout checkout = start().select(Checkout.class).get();
        OperationBeans.failures.set(1);

        checkout.checkoutOnAnotherThread();

        assertThat(keysTo("payments")).hasSize(2).containsOnly(keysTo("payments").get(0));
    }

    @Test
    void twoCallsOfTheMethod_areTwoOperations() {
        Checkout checkout = start().select(Checkout.class).get();

        checkout.checkout();
        checkout.checkout();

        assertThat(keysTo("payments")).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void aNestedOperationMethod_joinsTheCallersOperation() {
        WeldContainer weld = start();
        Checkout checkout = weld.select(Checkout.class).get();

        IdempotentOperations.run("order-9/checkout", checkout::checkout);
        IdempotentOperations.run("order-9/checkout", checkout::checkout);

        // Inside the chosen operation, checkout() and book() number their requests in it: the
        // same keys both times.
        assertThat(keysTo("payments")).hasSize(2).containsOnly(keysTo("payments").get(0));
        assertThat(keysTo("shipments")).hasSize(2).containsOnly(keysTo("shipments").get(0));
    }

    @Test
    void anOperationKeyArgument_givesTheSameKeysForTheSameValue() {
        Checkout checkout = start().select(Checkout.class).get();

        checkout.place("order-1");
        checkout.place("order-1");
        checkout.place("order-2");

        List<String> keys = keysTo("orders");
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(2)).isNotEqualTo(keys.get(0));
        assertThat(keys.get(0))
                .isEqualTo(
                        RequestKeys.derive(
                                "order-1".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                "POST",
                                "/api/orders",
                                1));
    }

    @Test
    void aNullOperationKey_throws_andTheMethodDoesNotRun() {
        Checkout checkout = start().select(Checkout.class).get();

        assertThatThrownBy(() -> checkout.place(null))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining(Checkout.class.getName() + ".place");
        assertThat(server.sent()).isEmpty();
    }

    @Test
    void aRetryOnTheCaller_makesEachAttemptANewOperation_withNewKeys() {
        RetryingCaller caller = start().select(RetryingCaller.class).get();
        OperationBeans.failures.set(5);

        // checkout() tries 4 times itself and fails; the caller's retry calls it again, a new
        // operation, which fails once more and then succeeds.
        caller.checkout();

        List<String> keys = keysTo("payments");
        assertThat(keys).hasSize(6);
        assertThat(keys.subList(0, 4)).containsOnly(keys.get(0));
        assertThat(keys.subList(4, 6)).containsOnly(keys.get(4));
        assertThat(keys.get(4)).isNotEqualTo(keys.get(0));
    }

    @Test
    void aRetryOnTheCaller_keepsTheKeys_whenTheOperationKeyIsChosen() {
        RetryingCaller caller = start().select(RetryingCaller.class).get();
        OperationBeans.failures.set(5);

        caller.place("order-3");

        assertThat(keysTo("orders")).hasSize(6).containsOnly(keysTo("orders").get(0));
    }

    @Test
    void aMethodWithoutTheBinding_isNoOperation() {
        Checkout checkout = start().select(Checkout.class).get();

        checkout.unscoped();
        checkout.unscoped();

        assertThat(keysTo("payments")).hasSize(2).doesNotHaveDuplicates();
    }

    @Test
    void theRetryExecutor_isInjectable_withTheConfiguredSettings() {
        deployment.set("idemkit.client.retry.max-retries", "7");

        IdempotentRetry retry = start().select(IdempotentRetry.class).get();

        assertThat(retry.settings().maxRetries()).isEqualTo(7);
    }

    @Test
    void anOperationKeyWithoutTheBinding_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(MisplacedKey.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "@OperationKey on "
                                + MisplacedKey.class.getName()
                                + ".send() has no effect without @IdempotentOperation");
    }

    @Test
    void twoOperationKeys_failTheDeployment() {
        assertThatThrownBy(() -> deployment.start(TwoKeys.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "More than one @OperationKey parameter on " + TwoKeys.class.getName());
    }

    @Test
    void aBrokenClientKey_failsTheDeployment() {
        deployment.set("idemkit.client.retry.statuses", "409");

        assertThatThrownBy(this::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid idemkit.client.retry.statuses=409");
    }
}
