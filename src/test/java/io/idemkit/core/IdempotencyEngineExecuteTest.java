package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The method-surface flow, {@link IdempotencyEngine#execute}: a throwing action releases the claim
 * and its exception reaches the caller (C4.4); a result that cannot be encoded holds the claim
 * against an immediate retry; the heartbeat renews the lease while the action runs and interrupts
 * it once the lease is lost (C4.7); fifty concurrent duplicates run the action once (C4.1, C4.3).
 */
class IdempotencyEngineExecuteTest extends IdempotencyEngineFixture {

    @Test
    void execute_throwingAction_releasesAndRethrowsTheSameException() {
        IllegalStateException boom = new IllegalStateException("boom");

        assertThatThrownBy(
                        () ->
                                engine.execute(
                                        op("fp"),
                                        () -> {
                                            throw boom;
                                        },
                                        Codecs.TEXT,
                                        false))
                .isSameAs(boom);

        assertThat(store.find("e".repeat(64))).isEmpty();
        assertThat(decisions()).containsExactly(Decision.NEW);
    }

    @Test
    void execute_unencodableResult_failsTheCallAndHoldsTheClaimAgainstAnImmediateRetry() {
        ResultCodec<String> refusing =
                new ResultCodec<>() {
                    @Override
                    public StoredResult encode(String value) {
                        throw new IllegalArgumentException("not JSON");
                    }

                    @Override
                    public String decode(StoredResult result) {
                        throw new AssertionError("never stored");
                    }
                };
        assertThatThrownBy(() -> engine.execute(op("fp"), () -> "x", refusing, false))
                .hasMessage("not JSON");

        assertThatThrownBy(
                        () ->
                                engine.execute(
                                        op("fp", withWait(Duration.ZERO)),
                                        () -> "again",
                                        Codecs.TEXT,
                                        false))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(decisions()).containsExactly(Decision.NEW, Decision.CONFLICT);
    }

    @Test
    void execute_keepAlive_renewsTheLeaseWhileTheActionRuns() throws Exception {
        CountingStore counting = new CountingStore(store);
        IdempotencyEngine engine = engineOn(counting);
        OperationPolicy shortLease =
                new OperationPolicy(
                        Duration.ofMillis(300),
                        POLICY.completedTtl(),
                        POLICY.waitTimeout(),
                        POLICY.onStorageError(),
                        POLICY.cacheable());

        String value =
                engine.execute(
                        op("fp", shortLease),
                        () -> {
                            await().atMost(Duration.ofSeconds(10))
                                    .until(() -> counting.renewals() >= 2);
                            return "done";
                        },
                        Codecs.TEXT,
                        true);

        assertThat(value).isEqualTo("done");
        int renewalsAtEnd = counting.renewals();
        await().pollDelay(Duration.ofMillis(400)).until(() -> true);
        assertThat(counting.renewals()).isEqualTo(renewalsAtEnd);
    }

    @Test
    void execute_keepAlive_lostLeaseFlagsAndInterruptsTheAction() throws Exception {
        OperationPolicy shortLease =
                new OperationPolicy(
                        Duration.ofMillis(300),
                        POLICY.completedTtl(),
                        POLICY.waitTimeout(),
                        POLICY.onStorageError(),
                        POLICY.cacheable());
        Operation operation = op("fp", shortLease);
        Execution execution = ((Admission.Proceed) engine.admit(operation)).execution();
        // Another executor takes the key over once the lease has run out on the store's clock.
        clock.advance(Duration.ofSeconds(1));
        ClaimToken thief = store.claim(operation.effectiveKey(), "fp", 1, LEASE).token();

        boolean interrupted;
        try (LeaseHeartbeat.Beat beat = execution.keepAlive()) {
            try {
                Thread.sleep(Duration.ofSeconds(30).toMillis());
                interrupted = false;
            } catch (InterruptedException expected) {
                interrupted = true;
            }
        }

        assertThat(interrupted).isTrue();
        assertThat(execution.leaseLost()).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(execution.finish(created("late"))).isEqualTo(FinishOutcome.LOST);
        assertThat(store.find(operation.effectiveKey()).orElseThrow().token()).isEqualTo(thief);
    }

    @Test
    void execute_fiftyConcurrentDuplicates_runTheActionOnceAndAllGetItsResult() throws Exception {
        int callers = 50;
        CyclicBarrier start = new CyclicBarrier(callers);
        AtomicInteger runs = new AtomicInteger();
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            results.add(
                    pool.submit(
                            () -> {
                                start.await(10, TimeUnit.SECONDS);
                                return engine.execute(
                                        op("fp"),
                                        () -> "run-" + runs.incrementAndGet(),
                                        Codecs.TEXT,
                                        false);
                            }));
        }
        List<String> values = new ArrayList<>();
        for (Future<String> result : results) {
            values.add(result.get(30, TimeUnit.SECONDS));
        }

        assertThat(runs.get()).isEqualTo(1);
        assertThat(values).containsOnly("run-1");
        assertThat(decisions()).filteredOn(d -> d == Decision.NEW).hasSize(1);
        // One terminal event per caller; those that waited also said so when they began.
        assertThat(decisions())
                .filteredOn(d -> d != Decision.IN_FLIGHT_WAIT)
                .hasSize(callers)
                .containsOnly(Decision.NEW, Decision.REPLAYED);
    }
}
