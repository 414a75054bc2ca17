package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.cdi.MethodPolicies;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.core.OperationPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Duration;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Per-method configuration and the deployment errors of misplaced annotations (C7.1, C8). */
class MethodDeploymentTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void quiet() {
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private OperationPolicy policy(WeldContainer weld, String method) throws Exception {
        return weld.select(MethodPolicies.class)
                .get()
                .policyFor(Tuned.class, Tuned.class.getMethod(method, String.class));
    }

    @Test
    void precedence_methodKeyThenMethodAnnotationThenClassKeyThenClassAnnotationThenGlobal()
            throws Exception {
        deployment.set("idemkit.lease-ttl", "11s");
        deployment.set("idemkit.completed-ttl", "1h");
        deployment.set(Tuned.class.getName() + "/Idempotent/waitTimeout", "3s");
        deployment.set(Tuned.class.getName() + "/Idempotent/completedTtl", "2h");
        deployment.set(Tuned.class.getName() + "/annotated/Idempotent/leaseTtl", "44s");

        WeldContainer weld = deployment.start(Tuned.class);
        OperationPolicy plain = policy(weld, "plain");
        OperationPolicy annotated = policy(weld, "annotated");

        // plain: class annotation leaseTtl=22s over global 11s; class key waitTimeout=3s.
        assertThat(plain.leaseTtl()).isEqualTo(Duration.ofSeconds(22));
        assertThat(plain.waitTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(plain.completedTtl()).isEqualTo(Duration.ofHours(2));
        // annotated: method key 44s beats the method annotation 33s; method annotation
        // waitTimeout=1s beats the class key 3s.
        assertThat(annotated.leaseTtl()).isEqualTo(Duration.ofSeconds(44));
        assertThat(annotated.waitTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(annotated.completedTtl()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void perMethodKeyOverride_reachesTheInterceptedCall() {
        deployment.set(Tuned.class.getName() + "/plain/Idempotent/cacheableStatus", "5xx");
        WeldContainer weld = deployment.start(Tuned.class, Beans.EventLog.class);
        Beans.reset();
        Tuned tuned = weld.select(Tuned.class).get();

        tuned.plain("k");
        tuned.plain("k");

        // A returning call counts as 200, which 5xx does not store: both calls run.
        assertThat(Beans.executions).hasValue(2);
    }

    @Test
    void invalidPerMethodValue_failsTheDeploymentNamingKeyValueAndRule() {
        deployment.set(Tuned.class.getName() + "/plain/Idempotent/leaseTtl", "-5s");
        deployment.set(Tuned.class.getName() + "/Idempotent/leaseTime", "5s");

        assertThatThrownBy(() -> deployment.start(Tuned.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid "
                                + Tuned.class.getName()
                                + "/plain/Idempotent/leaseTtl=-5s: must be positive")
                .hasMessageContaining(
                        "Invalid "
                                + Tuned.class.getName()
                                + "/Idempotent/leaseTime=5s: unknown member");
    }

    @Test
    void negativeTtlOnTheAnnotation_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(NegativeTtl.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("Invalid @Idempotent(completedTtl=\"-1s\": must be positive")
                .hasMessageContaining(NegativeTtl.class.getName() + ".pay()");
    }

    @Test
    void idempotentOnPrivateStaticOrFinalMethods_failsTheDeploymentNamingEach() {
        assertThatThrownBy(() -> deployment.start(Unreachable.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        Unreachable.class.getName()
                                + ".secret() would have no effect: interceptors never apply to a"
                                + " private method")
                .hasMessageContaining(Unreachable.class.getName() + ".shared()")
                .hasMessageContaining("to a static method")
                .hasMessageContaining(Unreachable.class.getName() + ".sealed()")
                .hasMessageContaining("to a final method");
    }

    @Test
    void ignoredMarkerOutsideIdempotentMethodOrBesideAKey_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(BadMarkers.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "@IdempotencyIgnored on parameter 0 of "
                                + BadMarkers.class.getName()
                                + ".plain() has no effect")
                .hasMessageContaining(
                        "Parameter 0 of "
                                + BadMarkers.class.getName()
                                + ".both() is both @IdempotencyKey and @IdempotencyIgnored");
    }

    /** A bean whose policy comes from every source. */
    @ApplicationScoped
    @Idempotent(leaseTtl = "22s")
    public static class Tuned {
        public String plain(@IdempotencyKey String key) {
            Beans.executions.incrementAndGet();
            return "plain";
        }

        @Idempotent(leaseTtl = "33s", waitTimeout = "1s")
        public String annotated(@IdempotencyKey String key) {
            return "annotated";
        }
    }

    /** A negative TTL. */
    @ApplicationScoped
    public static class NegativeTtl {
        @Idempotent(completedTtl = "-1s")
        public void pay() {}
    }

    /** Methods no interceptor can reach. */
    @Dependent
    public static class Unreachable {
        @Idempotent
        private void secret() {}

        @Idempotent
        public static void shared() {}

        @Idempotent
        public final void sealed() {}

        void use() {
            secret();
        }
    }

    /** Parameter markers in the wrong places. */
    @Dependent
    public static class BadMarkers {
        public void plain(@IdempotencyIgnored String requestId) {}

        @Idempotent
        public void both(@IdempotencyKey @IdempotencyIgnored String key) {}
    }
}
