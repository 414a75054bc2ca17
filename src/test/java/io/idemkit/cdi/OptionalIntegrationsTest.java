package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyEvent;
import io.idemkit.core.StoreDecorator;
import io.idemkit.health.StoreReadinessCheck;
import io.idemkit.http.ServletRequestEnd;
import io.idemkit.telemetry.OperationTelemetry;
import io.idemkit.telemetry.TracingStoreDecorator;
import io.idemkit.testsupport.PlainHealthResponses;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Destroyed;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.ObserverMethod;
import jakarta.servlet.ServletRequest;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The optional integrations as Weld sees them: synthetic beans of the types and qualifiers the
 * runtimes look for, in a scope that needs no active context, and observer methods with no bean.
 */
class OptionalIntegrationsTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeAll
    static void healthRuntime() {
        PlainHealthResponses.install();
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void readinessCheck_isADependentHealthCheckQualifiedReadiness_andNotInjectableByItsClass() {
        BeanManager beans = deployment.start().getBeanManager();

        Set<Bean<?>> checks = beans.getBeans(HealthCheck.class, Readiness.Literal.INSTANCE);
        Bean<?> check = beans.resolve(checks);

        assertThat(checks).hasSize(1);
        assertThat(check.getScope()).isEqualTo(Dependent.class);
        assertThat(check.getQualifiers()).contains(Readiness.Literal.INSTANCE);
        assertThat(check.getBeanClass()).isEqualTo(StoreReadinessCheck.class);
        // No injection point of its own: nothing in it depends on what its bean archive can see.
        assertThat(check.getInjectionPoints()).isEmpty();
        assertThat(beans.getBeans(StoreReadinessCheck.class)).isEmpty();
    }

    @Test
    void readinessCheck_afterStart_reportsTheStoreTheLibraryStarted() {
        WeldContainer weld = deployment.start();

        HealthCheckResponse response =
                weld.select(HealthCheck.class, Readiness.Literal.INSTANCE).get().call();

        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(response.getData().orElseThrow()).containsEntry("store", "memory");
    }

    @Test
    void readinessCheck_beforeTheApplicationStarted_isDown() {
        HealthCheckResponse response = new StoreReadinessCheck(Optional::empty).call();

        assertThat(response.getName()).isEqualTo(StoreReadinessCheck.NAME);
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(response.getData().orElseThrow())
                .containsEntry("error", "idemkit has not started yet");
    }

    @Test
    void servletRequestEnd_isAnObserverWithNoBean_thatLooksUpOneAttributePerRequest() {
        BeanManager beans = deployment.start().getBeanManager();
        List<String> lookedUp = new ArrayList<>();
        ServletRequest request =
                (ServletRequest)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {ServletRequest.class},
                                (proxy, method, args) -> {
                                    lookedUp.add(method.getName());
                                    return null;
                                });

        Set<ObserverMethod<? super ServletRequest>> observers =
                beans.resolveObserverMethods(request, Destroyed.Literal.REQUEST);
        beans.getEvent().select(ServletRequest.class, Destroyed.Literal.REQUEST).fire(request);

        assertThat(observers)
                .anySatisfy(o -> assertThat(o.getBeanClass()).isEqualTo(ServletRequestEnd.class));
        assertThat(beans.getBeans(ServletRequestEnd.class)).isEmpty();
        assertThat(lookedUp).containsExactly("getAttribute");
    }

    @Test
    void telemetry_isAnEventObserverAndADependentStoreDecorator() {
        BeanManager beans = deployment.start().getBeanManager();
        IdempotencyEvent sample =
                new IdempotencyEvent(
                        IdempotencyEvent.Decision.NEW, "0".repeat(64), Duration.ZERO, "-", 1, "-");

        Bean<?> decorator = beans.resolve(beans.getBeans(StoreDecorator.class));

        assertThat(beans.resolveObserverMethods(sample))
                .anySatisfy(o -> assertThat(o.getBeanClass()).isEqualTo(OperationTelemetry.class));
        assertThat(decorator.getBeanClass()).isEqualTo(TracingStoreDecorator.class);
        assertThat(decorator.getScope()).isEqualTo(Dependent.class);
    }

    @Test
    void guard_firstLinkageError_turnsTheIntegrationOff_andNeverRunsItAgain() {
        OptionalIntegrations.Guard guard = new OptionalIntegrations.Guard("test integration");
        AtomicInteger runs = new AtomicInteger();

        guard.run(
                () -> {
                    runs.incrementAndGet();
                    throw new NoSuchMethodError("an older API");
                });
        guard.run(runs::incrementAndGet);

        assertThat(guard.isOff()).isTrue();
        assertThat(runs).hasValue(1);
    }

    @Test
    void wire_aRegistrationTheRuntimeRefuses_isReportedAndDoesNotThrow() {
        boolean wired =
                OptionalIntegrations.wire(
                        "test integration",
                        () -> {
                            throw new IllegalStateException("refused");
                        });

        assertThat(wired).isFalse();
    }
}
