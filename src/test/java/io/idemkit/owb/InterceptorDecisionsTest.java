package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.owb.Ledger.Receipt;
import jakarta.enterprise.inject.se.SeContainer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The interceptor's decisions on OpenWebBeans, mirroring {@code
 * io.idemkit.method.MethodInterceptorTest} on Weld: a fresh call runs, a duplicate replays without
 * running, other arguments under the same key are a payload mismatch, and a call that throws
 * releases its claim. One container serves the class; each test uses keys of its own, so the order
 * tests run in never matters.
 */
class InterceptorDecisionsTest {

    private static final OwbDeployment deployment = new OwbDeployment();
    private static SeContainer owb;
    private static Ledger ledger;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @BeforeAll
    static void deploy() {
        deployment.set("idemkit.scope-mode", "single-tenant");
        deployment.set("idemkit.store", "memory");
        deployment.set("mp.config.profile", "test");
        deployment.set(Ledger.class.getName() + "/tuned/Idempotent/cacheableStatus", "5xx");
        owb = deployment.start(Ledger.class, Ledger.EventLog.class, Ledger.OrderResource.class);
        ledger = owb.select(Ledger.class).get();
    }

    @AfterAll
    static void undeploy() {
        deployment.close();
    }

    @BeforeEach
    void resetCounts() {
        Ledger.reset();
    }

    @AfterEach
    void stopThreads() {
        Ledger.gate.countDown();
        pool.shutdownNow();
    }

    @Test
    void freshCall_runsTheMethodOnce() {
        Receipt receipt = ledger.pay("fresh-1", "acct", 500, "r1");

        assertThat(receipt).isEqualTo(new Receipt("acct", 500, 1));
        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions()).containsExactly(Decision.NEW);
    }

    @Test
    void secondCallWithSameKey_replaysStoredResultWithoutRunning() {
        Receipt first = ledger.pay("dup-1", "acct", 500, "r1");
        Receipt second = ledger.pay("dup-1", "acct", 500, "r2");

        assertThat(second).isEqualTo(first);
        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void sameKeyOtherArguments_isAPayloadMismatchAndNeverReplays() {
        ledger.pay("mismatch-1", "acct", 500, "r1");

        assertThatThrownBy(() -> ledger.pay("mismatch-1", "acct", 999, "r1"))
                .isInstanceOf(IdempotencyPayloadMismatchException.class)
                .hasMessageNotContaining("mismatch-1");
        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions()).containsExactly(Decision.NEW, Decision.PAYLOAD_MISMATCH);
    }

    @Test
    void checkedException_isRethrownUnchangedAndReleasesTheClaim() throws Exception {
        Throwable thrown = null;
        try {
            ledger.refusedOnce("refused-1");
        } catch (Ledger.Refused e) {
            thrown = e;
        }

        assertThat(thrown).isExactlyInstanceOf(Ledger.Refused.class).hasMessage("refused on run 1");
        assertThat(ledger.refusedOnce("refused-1").run()).isEqualTo(2);
        assertThat(ledger.refusedOnce("refused-1").run()).isEqualTo(2);
        assertThat(Ledger.executions).hasValue(2);
    }

    @Test
    void runtimeException_isRethrownUnchangedAndReleasesTheClaim() {
        assertThatThrownBy(() -> ledger.crashesOnce("crash-1"))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("crashed on run 1");

        assertThat(ledger.crashesOnce("crash-1").run()).isEqualTo(2);
        assertThat(ledger.crashesOnce("crash-1").run()).isEqualTo(2);
        assertThat(Ledger.executions).hasValue(2);
    }

    @Test
    void genericResult_isReplayedAsItsDeclaredType() {
        List<Receipt> first = ledger.history("history-1");
        List<Receipt> replayed = ledger.history("history-1");

        assertThat(replayed).isEqualTo(first).allMatch(r -> r instanceof Receipt);
        assertThat(Ledger.executions).hasValue(1);
    }

    @Test
    void voidMethod_storesADoneMarkerAndDoesNotRunAgain() {
        ledger.close("close-1");
        ledger.close("close-1");

        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void duplicateInFlight_waitsAndReplays() throws Exception {
        Ledger.gate = new CountDownLatch(1);
        Ledger.entered = new CountDownLatch(1);

        Future<String> first = pool.submit(() -> ledger.slow("slow-1"));
        assertThat(Ledger.entered.await(10, TimeUnit.SECONDS)).isTrue();
        Future<String> duplicate = pool.submit(() -> ledger.slow("slow-1"));
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(duplicate.isDone()).isFalse());
        Ledger.gate.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("slow-1");
        assertThat(duplicate.get(10, TimeUnit.SECONDS)).isEqualTo("slow-1");
        assertThat(Ledger.executions).hasValue(1);
        assertThat(Ledger.decisions())
                .containsExactlyInAnyOrder(
                        Decision.NEW, Decision.IN_FLIGHT_WAIT, Decision.REPLAYED);
    }

    @Test
    void perMethodConfigurationKey_reachesTheInterceptedCall() {
        // A returning call counts as 200, which 5xx does not store: both calls run.
        assertThat(ledger.tuned("tuned-1")).isEqualTo("tuned-1");
        assertThat(ledger.tuned("tuned-1")).isEqualTo("tuned-2");
        assertThat(Ledger.executions).hasValue(2);
    }

    @Test
    void jaxRsResourceMethodOnACdiBean_isPassedThroughForTheFilterPair() {
        Ledger.OrderResource orders = owb.select(Ledger.OrderResource.class).get();

        assertThat(orders.create("{}")).isEqualTo("created-1");
        assertThat(orders.create("{}")).isEqualTo("created-2");
        assertThat(Ledger.events).isEmpty();
    }
}
