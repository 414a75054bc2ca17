package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.ForwardingStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's decisions and events (C4), on the in-memory store and a manual clock: replay,
 * payload mismatch, waiting on an in-flight duplicate, the cacheable-outcome policy, a completion
 * that lost its lease, a record of another fingerprint version, a corrupt record. Storage failures
 * are in {@link IdempotencyEngineStorageFailureTest}, the method-surface flow in {@link
 * IdempotencyEngineExecuteTest}.
 */
class IdempotencyEngineTest extends IdempotencyEngineFixture {

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
        // The waiter may be woken before the first call has emitted its own event. A waited
        // replay is counted as a replay, after its wait, and carries how long it waited.
        assertThat(decisions())
                .containsExactlyInAnyOrder(
                        Decision.NEW, Decision.IN_FLIGHT_WAIT, Decision.REPLAYED);
        assertThat(decisions().indexOf(Decision.IN_FLIGHT_WAIT))
                .isLessThan(decisions().indexOf(Decision.REPLAYED));
        assertThat(events)
                .filteredOn(e -> e.decision() == Decision.REPLAYED)
                .singleElement()
                .satisfies(e -> assertThat(e.waitDuration()).isPositive());
        assertThat(events)
                .filteredOn(e -> e.decision() != Decision.REPLAYED)
                .allSatisfy(e -> assertThat(e.waitDuration()).isZero());
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
        assertThat(decisions()).containsExactly(Decision.IN_FLIGHT_WAIT, Decision.CONFLICT);
        assertThat(events.get(1).waitDuration()).isPositive();
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

    // --- a record of another fingerprint version (C3, C4.2) -------------------------------

    /** The same request as {@link #op}, fingerprinted by a newer node's scheme. */
    private static Operation ofNewerNode(String fingerprint) {
        return new Operation("e".repeat(64), fingerprint, 2, POLICY, "http");
    }

    @Test
    void resultOfAnotherFingerprintVersion_isMismatchEvenWithTheSameFingerprint_neverReplayed() {
        proceed(ofNewerNode("fp")).finish(created("theirs"));

        assertThatThrownBy(() -> engine.admit(op("fp")))
                .isInstanceOf(IdempotencyPayloadMismatchException.class);

        assertThat(decisions()).containsExactly(Decision.NEW, Decision.PAYLOAD_MISMATCH);
        assertThat(store.find("e".repeat(64)).orElseThrow().result()).isEqualTo(created("theirs"));
    }

    /**
     * A node of the other release still runs it (a rolling upgrade): in progress with the lease it
     * has left, so that a message is redelivered and a client retries later; not a mismatch, which
     * would acknowledge a message unrun. Not waited for either: its result will not be replayed.
     */
    @Test
    void claimOfAnotherFingerprintVersionInFlight_isInProgressWithoutWaitingOrRunning() {
        proceed(ofNewerNode("fp"));
        ClaimToken theirs = store.find("e".repeat(64)).orElseThrow().token();
        clock.advance(Duration.ofSeconds(4));

        assertThatThrownBy(() -> engine.admit(op("fp-of-version-1")))
                .isInstanceOfSatisfying(
                        IdempotencyInProgressException.class,
                        e -> assertThat(e.retryAfter()).isEqualTo(LEASE.minusSeconds(4)));

        // No in_flight_wait: no wait began.
        assertThat(decisions()).containsExactly(Decision.CONFLICT);
        assertThat(store.find("e".repeat(64)).orElseThrow().token()).isEqualTo(theirs);
    }

    @Test
    void lapsedClaimOfAnotherFingerprintVersion_isReclaimedAndRun() {
        proceed(ofNewerNode("fp"));
        clock.advance(LEASE.plusSeconds(1));

        proceed(op("fp")).finish(created("mine"));

        assertThat(decisions()).containsExactly(Decision.LEASE_RECLAIMED);
    }

    // --- an unreadable record (C3) -----------------------------------------------------------

    @Test
    void claimThatOverwroteAnUnreadableRecord_proceedsAndIsReportedAsCorruptRecord() {
        // The in-memory store holds only what its claims wrote, which is always readable: this
        // one says what a store that overwrote raw data it could not read says.
        IdempotencyEngine recovering =
                engineOn(
                        new ForwardingStore(store) {
                            @Override
                            public ClaimResult claim(
                                    String key, String fingerprint, int version, Duration lease) {
                                ClaimResult won = super.claim(key, fingerprint, version, lease);
                                return new ClaimResult(won.status(), won.record(), true);
                            }
                        });

        Admission admission = recovering.admit(op("fp"));
        assertThat(admission).isInstanceOf(Admission.Proceed.class);
        ((Admission.Proceed) admission).execution().finish(created("ok"));

        assertThat(decisions()).containsExactly(Decision.CORRUPT_RECORD);
    }

    @Test
    void execution_endsOnlyOnce() {
        Execution execution = proceed(op("fp"));
        execution.finish(created("x"));

        assertThatThrownBy(execution::release).isInstanceOf(IllegalStateException.class);
        assertThat(events).hasSize(1);
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
