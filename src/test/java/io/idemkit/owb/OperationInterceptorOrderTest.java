package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.client.OperationBeans;
import io.idemkit.client.OperationBeans.Checkout;
import io.idemkit.client.OperationBeans.LikeAsynchronousRetryInterceptor;
import io.idemkit.client.OperationBeans.LikeRetryInterceptor;
import io.idemkit.client.OperationBeans.RetryingCaller;
import io.idemkit.client.OperationBeans.Shipping;
import io.idemkit.client.ScriptedServer;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.ws.rs.client.Client;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code @IdempotentOperation} on OpenWebBeans (C14.3), mirroring {@code
 * io.idemkit.client.OperationInterceptorTest} on Weld: the two interceptors sit either side of a
 * retry interceptor at Fault Tolerance's priority, as OpenWebBeans orders them.
 */
class OperationInterceptorOrderTest {

    private final OwbDeployment deployment = new OwbDeployment();
    private final ScriptedServer server = new ScriptedServer();
    private Client client;
    private SeContainer owb;

    @BeforeEach
    void deploy() {
        deployment.set("idemkit.scope-mode", "single-tenant");
        deployment.set("idemkit.store", "memory");
        deployment.set("mp.config.profile", "test");
        client = server.client();
        OperationBeans.base = client.target("http://shop.example/api");
        OperationBeans.failures.set(0);
        owb =
                deployment.start(
                        LikeRetryInterceptor.class,
                        LikeAsynchronousRetryInterceptor.class,
                        Checkout.class,
                        Shipping.class,
                        RetryingCaller.class);
    }

    @AfterEach
    void undeploy() {
        deployment.close();
        client.close();
    }

    private List<String> keysTo(String path) {
        return server.sent().stream()
                .filter(s -> s.path().endsWith(path))
                .map(ScriptedServer.Sent::key)
                .toList();
    }

    @Test
    void aRetryAtFaultTolerancesPriority_repeatsTheCallWithItsKeys() {
        OperationBeans.failures.set(2);

        owb.select(Checkout.class).get().checkout();

        assertThat(keysTo("payments")).hasSize(3).containsOnly(keysTo("payments").get(0));
        assertThat(keysTo("shipments")).hasSize(1);
    }

    @Test
    void attemptsOnThreadsOfTheirOwn_keepTheKeys() {
        OperationBeans.failures.set(1);

        owb.select(Checkout.class).get().checkoutOnAnotherThread();

        assertThat(keysTo("payments")).hasSize(2).containsOnly(keysTo("payments").get(0));
    }

    @Test
    void aRetryOnTheCaller_keepsTheKeys_whenTheOperationKeyIsChosen() {
        OperationBeans.failures.set(5);

        owb.select(RetryingCaller.class).get().place("order-3");

        assertThat(keysTo("orders")).hasSize(6).containsOnly(keysTo("orders").get(0));
    }
}
