package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.cdi.TestDeployment;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.method.Beans.Flights;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.testsupport.ClosedHeartbeat;
import io.idemkit.testsupport.FakeTransactions;
import java.util.concurrent.CountDownLatch;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A method call that wins its claim while the application is being undeployed, when the lease
 * heartbeat has already been closed and refuses to start a beat (C4.7): the call fails, and its
 * claim is released at once rather than left to its lease, so a retry runs.
 */
class MethodHeartbeatClosedTest {

    private final TestDeployment deployment = new TestDeployment();
    private Flights flights;
    private IdempotencyStore store;

    @BeforeEach
    void start() {
        Beans.reset();
        Beans.gate = new CountDownLatch(0);
        Beans.entered = new CountDownLatch(1);
        FakeTransactions.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
        WeldContainer weld =
                deployment.start(
                        Flights.class,
                        ClosedHeartbeat.class,
                        Beans.EventLog.class,
                        FakeTransactions.class);
        flights = weld.select(Flights.class).get();
        store = weld.select(IdempotencyStore.class).get();
    }

    @AfterEach
    void stop() {
        FakeTransactions.reset();
        deployment.close();
    }

    @Test
    void heartbeatClosed_callFails_andItsClaimIsReleasedNotLeaked() throws Exception {
        assertThatThrownBy(() -> flights.untilInterrupted("u1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("heartbeat is closed");

        assertThat(Beans.executions).as("the method did not run").hasValue(0);
        assertThat(store.find(key("u1"))).as("the claim's record").isEmpty();
    }

    private static String key(String key) throws Exception {
        return EffectiveKey.forMethod(
                key,
                ScopeResolver.SINGLE_TENANT_SCOPE,
                Flights.class.getName(),
                MethodPlan.signature(Flights.class.getMethod("untilInterrupted", String.class)));
    }
}
