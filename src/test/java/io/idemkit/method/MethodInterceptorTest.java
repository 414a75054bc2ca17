package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyResultNotStorableException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans.Booking;
import io.idemkit.method.Beans.Flights;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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

/** The interceptor on Weld: keys, identity, results, failures and waits (C7.1-C7.4, C4). */
class MethodInterceptorTest {

    private final TestDeployment deployment = new TestDeployment();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private Flights flights;

    @BeforeEach
    void deploy() {
        Beans.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
        deployment.set("idemkit.store", "memory");
        deployment.set("mp.config.profile", "test");
    }

    private WeldContainer start(Class<?>... extra) {
        Class<?>[] classes = new Class<?>[extra.length + 2];
        classes[0] = Flights.class;
        classes[1] = Beans.EventLog.class;
        System.arraycopy(extra, 0, classes, 2, extra.length);
        WeldContainer weld = deployment.start(classes);
        flights = weld.select(Flights.class).get();
        return weld;
    }

    @AfterEach
    void shutDown() {
        Beans.gate.countDown();
        pool.shutdownNow();
        deployment.close();
    }

    @Test
    void secondCallWithSameKey_replaysStoredResultWithoutRunning() {
        start();

        Booking first = flights.book("k1", "SFO", "JFK", "r1");
        Booking second = flights.book("k1", "SFO", "JFK", "r1");

        assertThat(second).isEqualTo(first).isEqualTo(new Booking("SFO", "JFK", 1));
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void sameKeyOtherArguments_isAPayloadMismatchAndNeverReplays() {
        start();
        flights.book("k1", "SFO", "JFK", "r1");

        assertThatThrownBy(() -> flights.book("k1", "SFO", "LAX", "r1"))
                .isInstanceOf(IdempotencyPayloadMismatchException.class)
                .hasMessageNotContaining("k1")
                .hasMessageNotContaining("LAX");
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.PAYLOAD_MISMATCH);
    }

    @Test
    void ignoredArgument_isNeitherKeyNorFingerprint() {
        start();
        Booking first = flights.book("k1", "SFO", "JFK", "r1");

        assertThat(flights.book("k1", "SFO", "JFK", "r2")).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void nullOrEmptyKey_isRefusedBeforeAnythingRuns() {
        start();

        assertThatThrownBy(() -> flights.book(null, "SFO", "JFK", "r1"))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("parameter 0 of " + Flights.class.getName() + ".book()")
                .hasMessageContaining("was null");
        assertThatThrownBy(() -> flights.transfer("acct", "", 5))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("parameter 1")
                .hasMessageContaining("was empty");
        assertThat(Beans.executions).hasValue(0);
        assertThat(Beans.events).isEmpty();
    }

    @Test
    void severalKeyParameters_areLengthPrefixedInDeclarationOrder() {
        start();

        String first = flights.transfer("ab", "c", 5);
        String shifted = flights.transfer("a", "bc", 5);
        String swapped = flights.transfer("c", "ab", 5);
        String again = flights.transfer("ab", "c", 5);

        assertThat(List.of(first, shifted, swapped)).doesNotHaveDuplicates();
        assertThat(again).isEqualTo(first);
        assertThat(Beans.executions).hasValue(3);
    }

    @Test
    void nonTextKey_usesItsCanonicalJson() {
        start();

        String first = flights.keyedByRecord(new Booking("SFO", "JFK", 1));
        String same = flights.keyedByRecord(new Booking("SFO", "JFK", 1));
        String other = flights.keyedByRecord(new Booking("SFO", "JFK", 2));

        assertThat(same).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }

    @Test
    void derivedKey_sameArgumentsReplayOtherArgumentsRun() {
        start();

        String first = flights.quote("SFO", "JFK");
        String again = flights.quote("SFO", "JFK");
        String other = flights.quote("SFO", "LAX");

        assertThat(again).isEqualTo(first).isEqualTo("SFO-JFK-1");
        assertThat(other).isEqualTo("SFO-LAX-2");
    }

    @Test
    void twoMethodsWithOneKey_neverShareRecords() {
        start();

        Booking booked = flights.book("k1", "SFO", "JFK", "r1");
        Booking rebooked = flights.rebook("k1", "SFO", "JFK");

        assertThat(rebooked.run()).isEqualTo(2);
        assertThat(booked.run()).isEqualTo(1);
    }

    @Test
    void operationName_keepsRecordsAcrossARenamedClassAndMethod() {
        WeldContainer weld = start(Beans.ChargesV1.class, Beans.ChargesV2.class);

        String v1 = weld.select(Beans.ChargesV1.class).get().charge("k1", 500);
        String v2 = weld.select(Beans.ChargesV2.class).get().chargeRenamed("k1", 500);

        assertThat(v2).isEqualTo(v1).isEqualTo("v1-500-1");
    }

    @Test
    void scope_keepsTenantsApart() {
        deployment.set("idemkit.scope-mode", "warn");
        start(Beans.TenantScope.class);

        Beans.TenantScope.tenant = "tenant-A";
        Booking a = flights.book("k1", "SFO", "JFK", "r1");
        Beans.TenantScope.tenant = "tenant-B";
        Booking b = flights.book("k1", "SFO", "JFK", "r1");
        Beans.TenantScope.tenant = "tenant-A";
        Booking aAgain = flights.book("k1", "SFO", "JFK", "r1");

        assertThat(b.run()).isEqualTo(2);
        assertThat(aAgain).isEqualTo(a);
    }

    @Test
    void genericReturnTypes_areRebuiltAsDeclared() {
        start();

        List<Booking> list = flights.list("l");
        Map<String, List<Booking>> map = flights.byOrigin("m");
        Optional<Booking> present = flights.find("o1", true);
        Optional<Booking> empty = flights.find("o2", false);
        int count = flights.count("c");
        byte[] ticket = flights.ticket("t");

        assertThat(flights.list("l")).isEqualTo(list).first().isInstanceOf(Booking.class);
        Map<String, List<Booking>> replayedMap = flights.byOrigin("m");
        assertThat(replayedMap).isEqualTo(map);
        assertThat(replayedMap.get("JFK")).hasSize(2).allMatch(b -> b instanceof Booking);
        assertThat(flights.find("o1", true)).isEqualTo(present).containsInstanceOf(Booking.class);
        assertThat(flights.find("o2", false)).isEqualTo(empty).isEmpty();
        assertThat(flights.count("c")).isEqualTo(count).isEqualTo(45);
        assertThat(flights.ticket("t")).isEqualTo(ticket).containsExactly(1, 2, 0xFF, 6);
        assertThat(Beans.executions).hasValue(6);
        assertThat(Beans.decisions())
                .containsOnly(Decision.NEW, Decision.REPLAYED)
                .filteredOn(d -> d == Decision.REPLAYED)
                .hasSize(6);
    }

    @Test
    void voidMethod_storesADoneMarkerAndDoesNotRunAgain() {
        start();

        flights.cancel("c1");
        flights.cancel("c1");

        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void checkedException_isRethrownUnchangedAndReleasesTheKey() throws Exception {
        start();

        Throwable thrown = null;
        try {
            flights.failing("f1");
        } catch (Beans.SoldOut e) {
            thrown = e;
        }
        assertThat(thrown).isExactlyInstanceOf(Beans.SoldOut.class).hasMessage("sold out on run 1");

        assertThat(flights.failing("f1").run()).isEqualTo(2);
        assertThat(flights.failing("f1").run()).isEqualTo(2);
        assertThat(Beans.executions).hasValue(2);
    }

    @Test
    void unserializableResult_failsAndHoldsTheClaimSoARetryDoesNotRun() {
        start();

        assertThatThrownBy(() -> flights.unserializable("u1"))
                .isInstanceOf(IdempotencyResultNotStorableException.class)
                .hasMessageContaining("The operation ran")
                .hasMessageContaining(Beans.Unserializable.class.getName());
        assertThatThrownBy(() -> flights.unserializable("u1"))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void resultThatCannotBeRebuilt_isRefusedAtStoreTimeNotAtReplay() {
        start();

        assertThatThrownBy(() -> flights.writeOnly("w1"))
                .isInstanceOf(IdempotencyResultNotStorableException.class)
                .hasMessageContaining("rebuild it as " + Beans.WriteOnly.class.getTypeName());
        assertThatThrownBy(() -> flights.writeOnly("w1"))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void resultAboveMaxBodyBytes_failsAndHoldsTheClaim() {
        deployment.set("idemkit.max-body-bytes", "100");
        start();

        assertThat(flights.big("small", 10)).hasSize(10);
        assertThatThrownBy(() -> flights.big("b1", 200))
                .isInstanceOf(IdempotencyResultNotStorableException.class)
                .hasMessageContaining("above idemkit.max-body-bytes=100");
        assertThatThrownBy(() -> flights.big("b1", 200))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(Beans.executions).hasValue(2);
    }

    @Test
    void completionStage_completesOnTheStageAndReplaysACompletedStage() throws Exception {
        start();

        Booking first = flights.later("s1", false).get(10, TimeUnit.SECONDS);
        CompletableFuture<Booking> replay = flights.later("s1", false);

        assertThat(replay).isCompleted();
        assertThat(replay.get()).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void failedCompletionStage_releasesTheKey() throws Exception {
        start();

        CompletableFuture<Booking> failed = flights.later("s2", true);
        assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("async failure");
        assertThatThrownBy(failed::join).isInstanceOf(CompletionException.class);

        assertThat(flights.later("s2", false).get(10, TimeUnit.SECONDS).run()).isEqualTo(2);
    }

    @Test
    void duplicateInFlight_waitsAndReplays() throws Exception {
        start();
        Beans.gate = new CountDownLatch(1);
        Beans.entered = new CountDownLatch(1);

        Future<String> first = pool.submit(() -> flights.slow("w1"));
        assertThat(Beans.entered.await(10, TimeUnit.SECONDS)).isTrue();
        Future<String> duplicate = pool.submit(() -> flights.slow("w1"));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(duplicate.isDone()).isFalse());
        Beans.gate.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("slow-1");
        assertThat(duplicate.get(10, TimeUnit.SECONDS)).isEqualTo("slow-1");
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions())
                .containsExactlyInAnyOrder(
                        Decision.NEW, Decision.IN_FLIGHT_WAIT, Decision.REPLAYED);
    }

    @Test
    void duplicateInFlightPastTheWaitTimeout_isToldInProgressWithTheLeaseLeft() throws Exception {
        start();
        Beans.gate = new CountDownLatch(1);
        Beans.entered = new CountDownLatch(1);

        Future<String> first = pool.submit(() -> flights.slowImpatient("w2"));
        assertThat(Beans.entered.await(10, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> flights.slowImpatient("w2"))
                .isInstanceOfSatisfying(
                        IdempotencyInProgressException.class,
                        e ->
                                assertThat(e.retryAfter())
                                        .isPositive()
                                        .isLessThanOrEqualTo(Duration.ofSeconds(30)))
                .hasMessageContaining("ms left");
        Beans.gate.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("slow-1");
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void jaxRsResourceMethodOnACdiBean_isPassedThroughForTheFilterPair() {
        WeldContainer weld = start(Beans.OrderResource.class, Beans.PaymentResource.class);
        Beans.OrderResource orders = weld.select(Beans.OrderResource.class).get();
        Beans.PaymentResource payments = weld.select(Beans.PaymentResource.class).get();

        assertThat(orders.create("{}")).isEqualTo("created-1");
        assertThat(orders.create("{}")).isEqualTo("created-2");
        assertThat(payments.pay("{}")).isEqualTo("paid-3");
        assertThat(payments.pay("{}")).isEqualTo("paid-4");
        assertThat(Beans.events).isEmpty();
    }

    @Test
    void jaxRsResourceMethods_loseTheInterceptorBinding_soNoInterceptorChainRuns() {
        WeldContainer weld = start(Beans.OrderResource.class);

        // Its only @Idempotent method is a resource method: without the binding, Weld has no
        // reason to subclass the bean at all.
        assertThat(weld.select(Beans.OrderResource.class).get().runtimeClass())
                .isEqualTo(Beans.OrderResource.class);
    }
}
