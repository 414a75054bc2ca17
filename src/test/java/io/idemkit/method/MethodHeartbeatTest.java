package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.method.Beans.Flights;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.FakeTransactions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.transaction.Status;
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
 * {@code idemkit.heartbeat.interrupt=false}. Inside a JTA transaction, whose end the test drives by
 * hand as a container's commit, the heartbeat goes on from the method's return until the completion
 * is written after the commit, and never interrupts the committing thread.
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
        FakeTransactions.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        FakeTransactions.reset();
        Beans.gate.countDown();
        pool.shutdownNow();
        deployment.close();
    }

    private void start() {
        WeldContainer weld =
                deployment.start(
                        Flights.class,
                        ManualTime.class,
                        Beans.EventLog.class,
                        FakeTransactions.class);
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

    /** Calls the method on this thread inside the test's transaction, which stays open. */
    private String returnedInsideATransaction(String key) {
        FakeTransactions.status = Status.STATUS_ACTIVE;
        Beans.gate.countDown();
        return flights.untilInterrupted(key);
    }

    @Test
    void aCommitSlowerThanTheLease_isRenewedUntilTheCompletionIsWritten_andADuplicateWaits()
            throws Exception {
        start();
        assertThat(returnedInsideATransaction("t1")).isEqualTo("finished");

        // The container commits for 6 s, twice the lease, and the beat goes on meanwhile.
        for (int i = 0; i < 3; i++) {
            CLOCK.advance(Duration.ofSeconds(2));
            SCHEDULER.runDue();
        }
        assertThat(leaseUntil("t1")).isEqualTo(CLOCK.instant().plusSeconds(3));
        // A duplicate finds the claim live: it waits, it does not take it over.
        assertThat(store.claim(key("t1"), "other", 1, Duration.ofSeconds(3)).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();

        FakeTransactions.end(Status.STATUS_COMMITTED);

        assertThat(store.find(key("t1")).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(SCHEDULER.liveTasks()).as("the beat stopped with the completion").isZero();
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW);
    }

    @Test
    void aLeaseLostDuringTheCommit_isSaid_neverInterruptsTheCommit_andTheCompletionIsFenced()
            throws Exception {
        start(); // idemkit.heartbeat.interrupt=true, the default
        returnedInsideATransaction("t2");

        // The store lost the claim meanwhile (its lease ran out unrenewed, another took it over).
        CLOCK.advance(Duration.ofSeconds(4));
        assertThat(store.claim(key("t2"), "other", 1, Duration.ofSeconds(3)).token()).isNotNull();
        SCHEDULER.runDue();

        // The thread that commits is not interrupted: the commit goes on.
        assertThat(Thread.interrupted()).isFalse();
        assertThat(Beans.decisions()).containsExactly(Decision.LEASE_LOST);
        FakeTransactions.end(Status.STATUS_COMMITTED);

        // C4.5: the late completion is discarded, the other claim left alone.
        assertThat(store.find(key("t2")).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        assertThat(Beans.decisions())
                .containsExactly(Decision.LEASE_LOST, Decision.LEASE_RECLAIMED_LOSS);
        assertThat(SCHEDULER.liveTasks()).isZero();
    }

    @Test
    void aRollback_stopsTheBeat_andReleasesTheClaim() throws Exception {
        start();
        returnedInsideATransaction("t3");
        CLOCK.advance(Duration.ofSeconds(2));
        SCHEDULER.runDue();
        assertThat(SCHEDULER.liveTasks()).isEqualTo(1);

        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        assertThat(store.find(key("t3"))).isEmpty();
        assertThat(SCHEDULER.liveTasks()).isZero();
    }

    @Test
    void withoutATransaction_theBeatStopsWhenTheMethodReturns() throws Exception {
        start();
        Beans.gate.countDown();

        flights.untilInterrupted("t4");

        assertThat(store.find(key("t4")).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(SCHEDULER.liveTasks()).isZero();
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
