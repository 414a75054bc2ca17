package io.idemkit.interceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.interceptor.Beans.Flights;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease heartbeat of long method calls (C4.7), on a store clock and a scheduler the test moves
 * by hand: renewals extend the lease, and a failed renewal interrupts the method's thread unless
 * {@code idemkit.heartbeat.interrupt=false}.
 */
class MethodHeartbeatTest {

    static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    static final ManualScheduler SCHEDULER = new ManualScheduler();

    private final TestDeployment deployment = new TestDeployment();
    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private Flights flights;
    private IdempotencyStore store;

    @BeforeEach
    void reset() {
        Beans.reset();
        Beans.gate = new CountDownLatch(1);
        Beans.entered = new CountDownLatch(1);
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        Beans.gate.countDown();
        pool.shutdownNow();
        deployment.close();
    }

    private void start() {
        WeldContainer weld =
                deployment.start(Flights.class, ManualTime.class, Beans.EventLog.class);
        flights = weld.select(Flights.class).get();
        store = weld.select(IdempotencyStore.class).get();
    }

    private static String key(String key) throws Exception {
        return EffectiveKey.forMethod(
                key,
                ScopeResolver.SINGLE_TENANT_SCOPE,
                Flights.class.getName(),
                MethodPlan.signature(Flights.class.getMethod("untilInterrupted", String.class)));
    }

    private Instant leaseUntil(String key) throws Exception {
        return store.find(key(key)).map(IdempotencyRecord::leaseUntil).orElseThrow();
    }

    @Test
    void longCall_renewsItsLeaseOnEveryBeat() throws Exception {
        start();
        Future<String> call = pool.submit(() -> flights.untilInterrupted("h1"));
        assertThat(Beans.entered.await(10, TimeUnit.SECONDS)).isTrue();
        Instant first = leaseUntil("h1");

        CLOCK.advance(Duration.ofSeconds(2));
        SCHEDULER.runDue();

        assertThat(leaseUntil("h1")).isEqualTo(first.plusSeconds(2));
        Beans.gate.countDown();
        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("finished");
        assertThat(SCHEDULER.liveTasks()).isZero();
    }

    @Test
    void failedRenewal_interruptsTheMethodsThread() throws Exception {
        start();
        Future<String> call = pool.submit(() -> flights.untilInterrupted("h2"));
        assertThat(Beans.entered.await(10, TimeUnit.SECONDS)).isTrue();

        // The lease runs out unrenewed, and another caller takes the key over.
        CLOCK.advance(Duration.ofSeconds(4));
        assertThat(store.claim(key("h2"), "other", 1, Duration.ofSeconds(3)).token()).isNotNull();
        SCHEDULER.runDue();

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(InterruptedException.class);
        assertThat(Beans.sawInterrupt).isTrue();
    }

    @Test
    void failedRenewalWithInterruptOff_letsTheMethodRunOn() throws Exception {
        deployment.set("idemkit.heartbeat.interrupt", "false");
        start();
        Future<String> call = pool.submit(() -> flights.untilInterrupted("h3"));
        assertThat(Beans.entered.await(10, TimeUnit.SECONDS)).isTrue();

        CLOCK.advance(Duration.ofSeconds(4));
        store.claim(key("h3"), "other", 1, Duration.ofSeconds(3));
        SCHEDULER.runDue();
        Beans.gate.countDown();

        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("finished");
        assertThat(Beans.sawInterrupt).isFalse();
        // Said when found, then the fenced completion: both alertable.
        assertThat(Beans.decisions())
                .containsExactly(Decision.LEASE_LOST, Decision.LEASE_RECLAIMED_LOSS);
    }

    /** The store's clock and the heartbeat's scheduler, both moved by the test. */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class ManualTime {
        @Produces
        @ApplicationScoped
        IdempotencyStore store() {
            return new InMemoryIdempotencyStore(CLOCK, 100);
        }

        @Produces
        @Singleton
        LeaseHeartbeat heartbeat(IdemkitConfig config) {
            return new LeaseHeartbeat(config.heartbeatInterrupt(), SCHEDULER);
        }
    }
}
