package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine's decisions and events (C4), on the in-memory store and a manual clock. */
class IdempotencyEngineTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final OperationPolicy POLICY =
            new OperationPolicy(
                    LEASE,
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse("2xx"));

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1000);
    private final List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(true);
    private final IdempotencyEngine engine = engineOn(store);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        pool.shutdownNow();
        engine.close();
        store.close();
    }

    private IdempotencyEngine engineOn(IdempotencyStore on) {
        return new IdempotencyEngine(on, events::add, heartbeat, Ticker.system());
    }

    private static Operation op(String fingerprint) {
        return op(fingerprint, POLICY);
    }

    private static Operation op(String fingerprint, OperationPolicy policy) {
        return new Operation("e".repeat(64), fingerprint, 1, policy, "http");
    }

    private static StoredResult created(String body) {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/1")),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static OperationPolicy withWait(Duration wait) {
        return new OperationPolicy(
                LEASE, POLICY.completedTtl(), wait, POLICY.onStorageError(), POLICY.cacheable());
    }

    private Execution proceed(Operation operation) {
        Admission admission = engine.admit(operation);
        assertThat(admission).isInstanceOf(Admission.Proceed.class);
        return ((Admission.Proceed) admission).execution();
    }

    private List<Decision> decisions() {
        return events.stream().map(IdempotencyEvent::decision).toList();
    }

    @Test
    void firstCall_proceedsAndStoresThenSecondCallReplaysStoredResult() {
        Execution first = proceed(op("fp"));
        assertThat(first.finish(created("one"))).isEqualTo(FinishOutcome.STORED);

        Admission second = engine.admit(op("fp"));

        assertThat(second)
                .extracting(a -> ((Admission.Replay) a).result())
                .isEqualTo(created("one"));
        assertThat(decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void events_carryTheEffectiveKeyStoreVersionAndSurfaceButNoRawData() {
        proceed(op("fp")).finish(created("one"));

        IdempotencyEvent event = events.get(0);
        assertThat(event.effectiveKey()).isEqualTo("e".repeat(64));
        assertThat(event.store()).isEqualTo("memory");
        assertThat(event.fingerprintVersion()).isEqualTo(1);
        assertThat(event.surface()).isEqualTo("http");
        assertThat(event.latency().isNegative()).isFalse();
        assertThat(event.decision().eventName()).isEqualTo("idempotency.new");
    }

    @Test
    void sameKeyWithOtherPayload_afterCompletion_isMismatchAndNeverReplayed() {
        proceed(op("fp-x")).finish(created("x"));

        assertThatThrownBy(() -> engine.admit(op("fp-y")))
                .isInstanceOf(IdempotencyPayloadMismatchException.class);

        assertThat(decisions()).containsExactly(Decision.NEW, Decision.PAYLOAD_MISMATCH);
    }

    @Test
    void sameKeyWithOtherPayload_whileInFlight_isMismatchWithoutWaiting() {
        proceed(op("fp-x"));

        assertThatThrownBy(() -> engine.admit(op("fp-y")))
                .isInstanceOf(IdempotencyPayloadMismatchException.class);

        assertThat(decisions()).containsExactly(Decision.PAYLOAD_MISMATCH);
    }

    @Test
    void duplicateOfInFlightCall_waitsAndReplaysItsResult() throws Exception {
        Execution first = proceed(op("fp"));
        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<Admission> second =
                pool.submit(
                        () -> {
                            waiter.set(Thread.currentThread());
                            return engine.admit(op("fp"));
                        });
        awaitParked(waiter);

        first.finish(created("one"));

        assertThat(second.get(10, TimeUnit.SECONDS))
                .extracting(a -> ((Admission.Replay) a).result())
                .isEqualTo(created("one"));
        // The waiter may be woken before the first call has emitted its own event.
        assertThat(decisions()).containsExactlyInAnyOrder(Decision.NEW, Decision.IN_FLIGHT_WAIT);
    }

    @Test
    void duplicateOfInFlightCall_thatIsReleased_claimsAndRunsItself() throws Exception {
        Execution first = proceed(op("fp"));
        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<Admission> second =
                pool.submit(
                        () -> {
                            waiter.set(Thread.currentThread());
                            return engine.admit(op("fp"));
                        });
        awaitParked(waiter);

        first.release();

        assertThat(second.get(10, TimeUnit.SECONDS)).isInstanceOf(Admission.Proceed.class);
    }

    @Test
    void duplicateOfInFlightCall_afterWaitTimeout_isInProgressWithTheRemainingLease() {
        proceed(op("fp"));
        clock.advance(Duration.ofSeconds(12));

        assertThatThrownBy(() -> engine.admit(op("fp", withWait(Duration.ofMillis(200)))))
                .isInstanceOfSatisfying(
                        IdempotencyInProgressException.class,
                        e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(18)));
        assertThat(decisions()).containsExactly(Decision.CONFLICT);
    }

    @Test
    void zeroWaitTimeout_reportsInProgressAtOnce() {
        proceed(op("fp"));

        assertThatThrownBy(() -> engine.admit(op("fp", withWait(Duration.ZERO))))
                .isInstanceOf(IdempotencyInProgressException.class)
                .hasMessageContaining("still in progress")
                .hasMessageNotContaining("fp");
    }

    @Test
    void serverError_isNotStoredAndTheRetryRunsAgain() {
        Execution first = proceed(op("fp"));
        assertThat(first.finish(new StoredResult(500, List.of(), new byte[0])))
                .isEqualTo(FinishOutcome.RELEASED);

        Execution retry = proceed(op("fp"));

        assertThat(retry.finish(created("ok"))).isEqualTo(FinishOutcome.STORED);
        assertThat(decisions()).containsExactly(Decision.NEW, Decision.NEW);
    }

    @Test
    void clientError_isStoredOnlyWhenConfigured() {
        OperationPolicy with4xx =
                new OperationPolicy(
                        LEASE,
                        POLICY.completedTtl(),
                        POLICY.waitTimeout(),
                        POLICY.onStorageError(),
                        CacheableStatuses.parse("2xx,4xx"));
        StoredResult notFound = new StoredResult(404, List.of(), new byte[0]);

        assertThat(proceed(op("fp")).finish(notFound)).isEqualTo(FinishOutcome.RELEASED);
        assertThat(proceed(op("fp", with4xx)).finish(notFound)).isEqualTo(FinishOutcome.STORED);
        assertThat(engine.admit(op("fp", with4xx)))
                .extracting(a -> ((Admission.Replay) a).result())
                .isEqualTo(notFound);
    }

    @Test
    void completionAfterTheLeaseWasTakenOver_isDiscardedAsLeaseReclaimedLoss() {
        Execution slow = proceed(op("fp"));
        clock.advance(LEASE.plusSeconds(1));
        Execution takeover = proceed(op("fp"));
        assertThat(takeover.admission()).isEqualTo(Decision.LEASE_RECLAIMED);

        assertThat(slow.finish(created("zombie"))).isEqualTo(FinishOutcome.LOST);
        assertThat(takeover.finish(created("winner"))).isEqualTo(FinishOutcome.STORED);

        assertThat(engine.admit(op("fp")))
                .extracting(a -> ((Admission.Replay) a).result())
                .isEqualTo(created("winner"));
        assertThat(decisions())
                .containsExactly(
                        Decision.LEASE_RECLAIMED_LOSS, Decision.LEASE_RECLAIMED, Decision.REPLAYED);
    }

    @Test
    void unreadableRecord_isTreatedAsAbsentAndReportedAsCorruptRecord() {
        store.claim("e".repeat(64), "fp", 99, LEASE);

        Execution execution = proceed(op("fp"));
        execution.finish(created("ok"));

        assertThat(decisions()).containsExactly(Decision.CORRUPT_RECORD);
    }

    @Test
    void storeFailure_failClosed_refusesWithStorageErrorEvent() {
        IdempotencyEngine broken =
                engineOn(new FailingStore(new IdempotencyStorageException("down")));

        assertThatThrownBy(() -> broken.admit(op("fp")))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessage("down");
        assertThat(decisions()).containsExactly(Decision.STORAGE_ERROR);
    }

    @Test
    void storeFailure_failOpen_runsUnprotectedWithStorageErrorEvent() {
        IdempotencyEngine broken =
                engineOn(new FailingStore(new IdempotencyStorageException("down")));
        OperationPolicy failOpen =
                new OperationPolicy(
                        LEASE,
                        POLICY.completedTtl(),
                        POLICY.waitTimeout(),
                        StorageErrorMode.FAIL_OPEN,
                        POLICY.cacheable());

        assertThat(broken.admit(op("fp", failOpen))).isInstanceOf(Admission.Unprotected.class);
        assertThat(decisions()).containsExactly(Decision.STORAGE_ERROR);
    }

    @Test
    void storeFailure_eventCarriesTheKindOfFailure() {
        IdempotencyEngine broken =
                engineOn(
                        new FailingStore(
                                new IdempotencyStorageException(
                                        IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED,
                                        "majority did not confirm",
                                        null)));

        assertThatThrownBy(() -> broken.admit(op("fp")))
                .isInstanceOf(IdempotencyStorageException.class);
        assertThat(events)
                .singleElement()
                .satisfies(
                        event -> {
                            assertThat(event.decision()).isEqualTo(Decision.STORAGE_ERROR);
                            assertThat(event.storageFailureKind())
                                    .contains(IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED);
                        });
    }

    @Test
    void storeThrowingSomethingElse_isReportedAsKindFailed() {
        IdempotencyEngine broken = engineOn(new FailingStore(new IllegalStateException("bug")));

        assertThatThrownBy(() -> broken.admit(op("fp")))
                .isInstanceOf(IdempotencyStorageException.class);
        assertThat(events)
                .singleElement()
                .extracting(IdempotencyEvent::storageFailure)
                .isEqualTo(IdempotencyStorageException.Kind.FAILED);
    }

    @Test
    void otherDecisions_carryNoStorageFailure() {
        proceed(op("fp")).finish(created("ok"));

        assertThat(events)
                .singleElement()
                .extracting(IdempotencyEvent::storageFailureKind)
                .isEqualTo(Optional.empty());
    }

    @Test
    void storeThrowingSomethingElse_isWrappedAsAStorageError() {
        IdempotencyEngine broken = engineOn(new FailingStore(new IllegalStateException("bug")));

        assertThatThrownBy(() -> broken.admit(op("fp")))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fail-closed");
    }

    @Test
    void storeFailingToComplete_holdsTheClaimSoTheLeaseGovernsRetries() {
        FailingCompleteStore flaky = new FailingCompleteStore(store);
        IdempotencyEngine engine = engineOn(flaky);
        Execution execution = ((Admission.Proceed) engine.admit(op("fp"))).execution();

        assertThat(execution.finish(created("lost"))).isEqualTo(FinishOutcome.STORE_FAILED);

        assertThat(store.find("e".repeat(64)).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        assertThat(decisions()).containsExactly(Decision.STORAGE_ERROR);
        assertThat(events.get(0).storageFailureKind())
                .contains(IdempotencyStorageException.Kind.FAILED);
    }

    @Test
    void execution_endsOnlyOnce() {
        Execution execution = proceed(op("fp"));
        execution.finish(created("x"));

        assertThatThrownBy(execution::release).isInstanceOf(IllegalStateException.class);
        assertThat(events).hasSize(1);
    }

    // --- execute: the method-surface flow ------------------------------------------------

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
        assertThat(events).hasSize(callers);
    }

    private static void awaitParked(AtomicReference<Thread> thread) {
        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                thread.get() != null
                                        && (thread.get().getState() == Thread.State.WAITING
                                                || thread.get().getState()
                                                        == Thread.State.TIMED_WAITING));
    }
}
