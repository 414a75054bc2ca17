package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import io.idemkit.cdi.MethodPolicies;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeResolver;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deployment validation on OpenWebBeans (C8): a representative subset of the Weld tests in {@code
 * io.idemkit.cdi.CdiWiringTest} and {@code io.idemkit.method.MethodDeploymentTest}. Every bad
 * setting or misplaced annotation fails the deployment, with the library's own message; a good
 * deployment gets what it configured. OpenWebBeans logs each problem and fails with a generic
 * message, so the library's messages are read from its log.
 */
class DeploymentValidationTest {

    private final OwbDeployment deployment = new OwbDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void zeroConfiguration_deploysWithTheInMemoryStoreAndTheReferenceScope() {
        SeContainer owb = deployment.start();

        assertThat(owb.select(IdempotencyStore.class).get().name()).isEqualTo("memory");
        ScopeResolver scope = owb.select(ScopeResolver.class).get();
        assertThat(scope.isSingleTenant()).isTrue();
        assertThat(scope.resolve()).isEqualTo("_idemkit_anonymous");
    }

    @Test
    void configuredDefaults_reachTheOperationPolicy() {
        deployment.set("idemkit.lease-ttl", "PT45S");
        deployment.set("idemkit.completed-ttl", "2d");
        deployment.set("idemkit.wait-timeout", "0s");
        deployment.set("idemkit.on-storage-error", "fail-open");

        IdemkitConfig cfg = deployment.start().select(IdemkitConfig.class).get();

        assertThat(cfg.defaults().leaseTtl()).isEqualTo(Duration.ofSeconds(45));
        assertThat(cfg.defaults().completedTtl()).isEqualTo(Duration.ofDays(2));
        assertThat(cfg.defaults().waitTimeout()).isZero();
        assertThat(cfg.defaults().onStorageError().name()).isEqualTo("FAIL_OPEN");
    }

    @Test
    void invalidConfigurationValues_failTheDeploymentNamingEachKeyValueAndRule() {
        deployment.set("idemkit.lease-ttl", "-5s");
        deployment.set("idemkit.on-storage-error", "fail-sometimes");
        deployment.set("idemkit.cacheable-status", "2xx,700");
        deployment.set("idemkit.store", "cassandra");

        assertThatThrownBy(deployment::start).isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("Invalid idemkit.lease-ttl=-5s: must be positive")
                .contains(
                        "Invalid idemkit.on-storage-error=fail-sometimes: must be one of"
                                + " fail-closed, fail-open")
                .contains("Invalid idemkit.cacheable-status=2xx,700")
                // The names are the bundled stores' own (StoreFactory#name), in the service
                // file's order.
                .contains(
                        "Invalid idemkit.store=cassandra: must be one of auto, mongo, memory, jdbc,"
                                + " redis");
    }

    @Test
    void mongoUriThatIsNoUri_failsTheDeploymentWithoutEchoingIt() {
        deployment.set("idemkit.mongo.uri", "secret-password@host");

        assertThatThrownBy(deployment::start).isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        "Invalid idemkit.mongo.uri (value not shown, it may hold a password): must"
                                + " start with mongodb://")
                .doesNotContain("secret-password");
    }

    @Test
    void strictScopeModeWithoutScopeSource_failsTheDeployment() {
        deployment.set("idemkit.scope-mode", "strict");

        assertThatThrownBy(deployment::start).isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("idemkit.scope-mode=strict requires a scope source");
    }

    @Test
    void twoScopeProviders_failTheDeployment() {
        assertThatThrownBy(() -> deployment.start(TenantScope.class, OtherScope.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("More than one IdempotencyScopeProvider bean");
    }

    @Test
    void invalidAnnotationMember_failsTheDeploymentNamingMethodMemberAndRule() {
        assertThatThrownBy(() -> deployment.start(BadLease.class))
                .isInstanceOf(DefinitionException.class);
        assertThat(deployment.deploymentErrors())
                .contains("Invalid @Idempotent(leaseTtl=\"soon\": must be a duration such as")
                .contains(BadLease.class.getName() + ".pay()");
    }

    @Test
    void idempotentOnPrivateOrStaticMethods_failsTheDeploymentNamingEach() {
        assertThatThrownBy(() -> deployment.start(Unreachable.class))
                .isInstanceOf(DefinitionException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        Unreachable.class.getName()
                                + ".secret() would have no effect: interceptors never apply to a"
                                + " private method")
                .contains(Unreachable.class.getName() + ".shared()")
                .contains("to a static method");
    }

    @Test
    void ignoredMarkerOutsideIdempotentMethodOrBesideAKey_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(BadMarkers.class))
                .isInstanceOf(DefinitionException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        "@IdempotencyIgnored on parameter 0 of "
                                + BadMarkers.class.getName()
                                + ".plain() has no effect")
                .contains(
                        "Parameter 0 of "
                                + BadMarkers.class.getName()
                                + ".both() is both @IdempotencyKey and @IdempotencyIgnored");
    }

    @Test
    void invalidPerMethodValue_failsTheDeploymentNamingKeyValueAndRule() {
        deployment.set(Tuned.class.getName() + "/plain/Idempotent/leaseTtl", "-5s");

        assertThatThrownBy(() -> deployment.start(Tuned.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        "Invalid "
                                + Tuned.class.getName()
                                + "/plain/Idempotent/leaseTtl=-5s: must be positive");
    }

    @Test
    void perMethodKeys_winOverAnnotationsAndGlobalDefaults() throws Exception {
        deployment.set("idemkit.lease-ttl", "11s");
        deployment.set(Tuned.class.getName() + "/annotated/Idempotent/leaseTtl", "44s");

        MethodPolicies policies = deployment.start(Tuned.class).select(MethodPolicies.class).get();
        OperationPolicy plain =
                policies.policyFor(Tuned.class, Tuned.class.getMethod("plain", String.class));
        OperationPolicy annotated =
                policies.policyFor(Tuned.class, Tuned.class.getMethod("annotated", String.class));

        assertThat(plain.leaseTtl()).isEqualTo(Duration.ofSeconds(22));
        assertThat(annotated.leaseTtl()).isEqualTo(Duration.ofSeconds(44));
        assertThat(annotated.waitTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void anotherExtensionUsingTheStoreDuringAfterDeploymentValidation_getsTheConfiguredStore() {
        deployment.set("idemkit.store", "memory").set("idemkit.max-waiters-per-key", "7");
        EarlyUser early = new EarlyUser();

        deployment.with(early).start();

        assertThat(early.problems).isEmpty();
        assertThat(early.maxWaiters).isEqualTo(7);
        assertThat(early.storeName).isEqualTo("memory");
    }

    /**
     * Another extension that uses the library's beans during {@code AfterDeploymentValidation}, as
     * a health runtime does (TomEE's {@code MPHealthCDIExtension}); its observer has the default
     * priority, and the container may notify it before the library's own.
     */
    public static class EarlyUser implements Extension {
        final List<String> problems = new ArrayList<>();
        int maxWaiters;
        String storeName;

        void use(@Observes AfterDeploymentValidation event, BeanManager beans) {
            try {
                Instance<Object> instance = beans.createInstance();
                maxWaiters = instance.select(IdemkitConfig.class).get().maxWaitersPerKey();
                storeName = instance.select(IdempotencyStore.class).get().name();
            } catch (RuntimeException e) {
                problems.add(e.getClass().getName() + ": " + e.getMessage());
            }
        }
    }

    /** A scope provider. */
    @ApplicationScoped
    public static class TenantScope implements IdempotencyScopeProvider {
        @Override
        public Optional<String> currentScope() {
            return Optional.of("tenant-A");
        }
    }

    /** A second scope provider. */
    @ApplicationScoped
    public static class OtherScope implements IdempotencyScopeProvider {
        @Override
        public Optional<String> currentScope() {
            return Optional.of("other");
        }
    }

    /** A bean with an unparseable annotation member. */
    @ApplicationScoped
    public static class BadLease {
        @Idempotent(leaseTtl = "soon")
        public void pay() {}
    }

    /** Methods no interceptor can reach. */
    @Dependent
    public static class Unreachable {
        @Idempotent
        private void secret() {}

        @Idempotent
        public static void shared() {}

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

    /** A bean whose policy comes from the class annotation, a method annotation and a key. */
    @ApplicationScoped
    @Idempotent(leaseTtl = "22s")
    public static class Tuned {
        public String plain(@IdempotencyKey String key) {
            return "plain";
        }

        @Idempotent(leaseTtl = "33s", waitTimeout = "1s")
        public String annotated(@IdempotencyKey String key) {
            return "annotated";
        }
    }
}
