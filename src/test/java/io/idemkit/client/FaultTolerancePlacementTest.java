package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.cdi.TestDeployment;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fault Tolerance's interceptor priority checked at deployment (C14.3): {@code
 * mp.fault.tolerance.interceptor.priority} outside 1101–4099 places Fault Tolerance outside the
 * operation interceptor (each retry a new operation) or inside the attempt interceptor (numbering
 * never reset): new keys on every retry. An {@code @IdempotentOperation} with {@code @Retry} on it
 * then fails the deployment; one without gets one WARNING; an application that does not use the
 * client half is left alone.
 */
class FaultTolerancePlacementTest {

    private static final String PRIORITY = "mp.fault.tolerance.interceptor.priority";

    private final TestDeployment deployment = new TestDeployment();
    private CapturedLog log;

    @BeforeEach
    void setUp() {
        deployment.set("idemkit.store", "memory").set("idemkit.scope-mode", "single-tenant");
        log = CapturedLog.of("io.idemkit");
    }

    @AfterEach
    void tearDown() {
        deployment.close();
        log.close();
    }

    @Test
    void ftInsideTheAttemptInterceptor_withRetryOnTheOperation_failsTheDeployment() {
        deployment.set(PRIORITY, "5000");

        assertThatThrownBy(() -> deployment.start(RetriedOperation.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid " + PRIORITY + "=5000")
                .hasMessageContaining("inside idemkit's attempt interceptor (4100)")
                .hasMessageContaining(RetriedOperation.class.getName() + ".pay()");
    }

    @Test
    void ftOutsideTheOperationInterceptor_withRetryOnTheOperation_failsTheDeployment() {
        deployment.set(PRIORITY, "1000");

        assertThatThrownBy(() -> deployment.start(RetriedOperation.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid " + PRIORITY + "=1000")
                .hasMessageContaining("outside idemkit's operation interceptor (1100)");
    }

    @Test
    void aMisplacedFt_withOperationsButNoRetryOnThem_isOneWarning() {
        deployment.set(PRIORITY, "5000");

        deployment.start(PlainOperation.class);

        assertThat(log.warnings())
                .filteredOn(w -> w.contains(PRIORITY))
                .singleElement()
                .asString()
                .contains("Invalid " + PRIORITY + "=5000")
                .doesNotContain("\n");
    }

    @Test
    void aMisplacedFt_inAnApplicationWithoutTheClientHalf_isLeftAlone() {
        deployment.set(PRIORITY, "5000");

        deployment.start(NoOperation.class);

        assertThat(log.warnings()).noneMatch(w -> w.contains(PRIORITY));
    }

    @Test
    void ftAtItsDefaultOrBetweenTheTwo_isFine() {
        deployment.set(PRIORITY, "4010");

        deployment.start(RetriedOperation.class);

        assertThat(log.warnings()).noneMatch(w -> w.contains(PRIORITY));
    }

    @ApplicationScoped
    public static class RetriedOperation {
        @IdempotentOperation
        @Retry(maxRetries = 2)
        public void pay() {}
    }

    @ApplicationScoped
    public static class PlainOperation {
        @IdempotentOperation
        public void pay() {}
    }

    @ApplicationScoped
    public static class NoOperation {
        @Retry(maxRetries = 2)
        public void pay() {}
    }
}
