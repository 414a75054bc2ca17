package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.Idempotent;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.Admission;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The CDI wiring on Weld: what a deployment gets, and which mistakes fail it (C5, C8). */
class CdiWiringTest {

    private final TestDeployment deployment = new TestDeployment();
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    logged.add(record);
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    @BeforeEach
    void captureLogs() {
        Logger.getLogger("io.idemkit").addHandler(capture);
        EventLog.events.clear();
    }

    @AfterEach
    void shutDown() {
        Logger.getLogger("io.idemkit").removeHandler(capture);
        deployment.close();
    }

    private WeldContainer start(Class<?>... extra) {
        return deployment.start(extra);
    }

    private String logText() {
        StringBuilder text = new StringBuilder();
        for (LogRecord record : logged) {
            text.append(record.getLevel()).append(' ').append(record.getMessage()).append('\n');
        }
        return text.toString();
    }

    @Test
    void zeroConfiguration_deploysWithTheInMemoryStoreAndWarnsLoudly() {
        WeldContainer weld = start();

        IdempotencyStore store = weld.select(IdempotencyStore.class).get();
        assertThat(store.name()).isEqualTo("memory");
        assertThat(logText())
                .contains(
                        "WARNING idemkit uses the IN-MEMORY store because idemkit.store=auto found"
                                + " no other store configured")
                .contains("set idemkit.mongo.uri")
                .contains("WARNING idemkit runs SINGLE-TENANT");
    }

    @Test
    void zeroConfiguration_singleTenantScopeIsTheReferenceValue() {
        WeldContainer weld = start();

        ScopeResolver scope = weld.select(ScopeResolver.class).get();
        assertThat(scope.isSingleTenant()).isTrue();
        assertThat(scope.resolve()).isEqualTo("_idemkit_anonymous");
    }

    @Test
    void acknowledgedSingleTenantAndDevProfile_deployWithoutWarnings() {
        deployment.set("idemkit.scope-mode", "single-tenant");
        deployment.set("idemkit.store", "memory");
        deployment.set("mp.config.profile", "dev");

        start();

        assertThat(logText()).doesNotContain("WARNING");
    }

    @Test
    void engine_firesOneCdiEventPerOperation() {
        WeldContainer weld = start(EventLog.class);
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();
        IdemkitConfig cfg = weld.select(IdemkitConfig.class).get();
        Operation op = new Operation("a".repeat(64), "fp", 1, cfg.defaults(), "method");

        Admission first = engine.admit(op);
        ((Admission.Proceed) first)
                .execution()
                .finish(new StoredResult(200, List.of(), new byte[0]));
        Admission second = engine.admit(op);

        assertThat(second).isInstanceOf(Admission.Replay.class);
        assertThat(EventLog.events)
                .extracting(IdempotencyEvent::decision)
                .containsExactly(IdempotencyEvent.Decision.NEW, IdempotencyEvent.Decision.REPLAYED);
        assertThat(EventLog.events.get(0).store()).isEqualTo("memory");
    }

    @Test
    void configuredDefaults_reachTheOperationPolicy() {
        deployment.set("idemkit.lease-ttl", "PT45S");
        deployment.set("idemkit.completed-ttl", "2d");
        deployment.set("idemkit.wait-timeout", "0s");
        deployment.set("idemkit.on-storage-error", "fail-open");

        IdemkitConfig cfg = start().select(IdemkitConfig.class).get();

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

        assertThatThrownBy(this::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid idemkit.lease-ttl=-5s: must be positive")
                .hasMessageContaining(
                        "Invalid idemkit.on-storage-error=fail-sometimes: must be one of"
                                + " fail-closed, fail-open")
                .hasMessageContaining("Invalid idemkit.cacheable-status=2xx,700");
    }

    @Test
    void mongoUriThatIsNoUri_failsTheDeploymentWithoutEchoingIt() {
        deployment.set("idemkit.mongo.uri", "secret-password@host");

        assertThatThrownBy(this::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid idemkit.mongo.uri (value not shown, it may hold a password): must"
                                + " start with mongodb://")
                .hasMessageNotContaining("secret-password");
    }

    @Test
    void unknownIdemkitKey_isReportedAsAWarning() {
        deployment.set("idemkit.lease_ttl", "5s");

        start();

        assertThat(logText())
                .contains("Unknown configuration keys are ignored: [idemkit.lease_ttl]");
    }

    @Test
    void strictScopeModeWithoutScopeSource_failsTheDeployment() {
        deployment.set("idemkit.scope-mode", "strict");

        assertThatThrownBy(this::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("idemkit.scope-mode=strict requires a scope source");
    }

    @Test
    void strictScopeModeWithProvider_deploysAndUsesTheProvidersScope() {
        deployment.set("idemkit.scope-mode", "strict");
        TenantScope.current = Optional.of("tenant-A");

        ScopeResolver scope = start(TenantScope.class).select(ScopeResolver.class).get();

        assertThat(scope.resolve()).isEqualTo("tenant-A");
    }

    @Test
    void providerYieldingNothing_failsTheCallClosed() {
        TenantScope.current = Optional.empty();

        ScopeResolver scope = start(TenantScope.class).select(ScopeResolver.class).get();

        assertThatThrownBy(scope::resolve)
                .isInstanceOf(IdempotencyScopeUnavailableException.class)
                .hasMessageContaining("yielded no scope");
    }

    @Test
    void principalScopeSourceWithoutAPrincipal_failsTheCallClosed() {
        deployment.set("idemkit.scope-source", "principal");

        ScopeResolver scope = start().select(ScopeResolver.class).get();

        assertThatThrownBy(scope::resolve).isInstanceOf(IdempotencyScopeUnavailableException.class);
    }

    @Test
    void principalScopeSourceBesideAProvider_failsTheDeployment() {
        deployment.set("idemkit.scope-source", "principal");

        assertThatThrownBy(() -> start(TenantScope.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Choose one");
    }

    @Test
    void twoScopeProviders_failTheDeployment() {
        assertThatThrownBy(() -> start(TenantScope.class, OtherScope.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("More than one IdempotencyScopeProvider bean");
    }

    @Test
    void invalidAnnotationMember_failsTheDeploymentNamingMethodMemberAndRule() {
        assertThatThrownBy(() -> start(BadLease.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "Invalid @Idempotent(leaseTtl=\"soon\": must be a duration such as")
                .hasMessageContaining(BadLease.class.getName() + ".pay()");
    }

    @Test
    void idempotencyKeyOutsideAnIdempotentMethod_failsTheDeployment() {
        assertThatThrownBy(() -> start(StrayKey.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("@IdempotencyKey on parameter 0 of")
                .hasMessageContaining("has no effect");
    }

    @Test
    void alternativeStoreBean_replacesTheDefaultStore() {
        IdempotencyStore store = start(CustomStore.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("custom");
    }

    @Test
    void engine_callsAnApplicationScopedStoreItself_notThroughItsClientProxy() {
        WeldContainer weld = start();

        IdempotencyStore injected = weld.select(IdempotencyStore.class).get();
        IdempotencyStore used = weld.select(IdempotencyEngine.class).get().store();
        assertThat(injected).isNotInstanceOf(InMemoryIdempotencyStore.class); // the client proxy
        assertThat(used).isInstanceOf(InMemoryIdempotencyStore.class);
    }

    @Test
    void engine_callsAnApplicationScopedAlternativeStoreItself() {
        WeldContainer weld = start(CustomStore.class);

        assertThat(weld.select(IdempotencyEngine.class).get().store().getClass())
                .isEqualTo(CustomStore.class);
    }

    /** Records the events CDI delivers. */
    @ApplicationScoped
    public static class EventLog {
        static final List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();

        void on(@Observes IdempotencyEvent event) {
            events.add(event);
        }
    }

    /** A scope provider whose value the test sets. */
    @ApplicationScoped
    public static class TenantScope implements IdempotencyScopeProvider {
        static volatile Optional<String> current = Optional.empty();

        @Override
        public Optional<String> currentScope() {
            return current;
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

    /** A bean with a key marker on a method that is not idempotent. */
    @ApplicationScoped
    public static class StrayKey {
        public void pay(@IdempotencyKey String key) {}
    }

    /** An application's own store, declared as an enabled alternative. */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class CustomStore extends ForwardingStore {
        public CustomStore() {
            super(new InMemoryIdempotencyStore(Clock.systemUTC(), 10));
        }

        @Override
        public String name() {
            return "custom";
        }
    }
}
