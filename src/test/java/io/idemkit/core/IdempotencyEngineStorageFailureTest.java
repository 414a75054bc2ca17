package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.RecordState;
import io.idemkit.testsupport.CapturedLog;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The engine when its store fails (C4.6, C4.8): fail-closed refuses, fail-open runs unprotected,
 * both with one {@code storage_error} event that carries the kind of failure; anything else a store
 * throws is wrapped as a storage error; a complete that fails holds the claim, so the lease governs
 * the retries.
 */
class IdempotencyEngineStorageFailureTest extends IdempotencyEngineFixture {

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
    void storeFailure_failOpen_runsUnprotectedWithRanUnprotectedEvent() {
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
        // Not storage_error, which says "refused": an operator must tell the two apart.
        assertThat(decisions()).containsExactly(Decision.RAN_UNPROTECTED);
        assertThat(events.get(0).storageFailureKind())
                .contains(IdempotencyStorageException.Kind.FAILED);
    }

    @Test
    void contendedClaim_failOpen_waitsThenIsInProgress_neverRunsUnprotected() {
        // C4.6: the key is busy, not the store down.
        IdempotencyEngine contended =
                engineOn(
                        new FailingStore(
                                new IdempotencyStorageException(
                                        IdempotencyStorageException.Kind.CONTENDED,
                                        "lock wait past the bound",
                                        null)));
        OperationPolicy failOpen =
                new OperationPolicy(
                        LEASE,
                        POLICY.completedTtl(),
                        Duration.ofMillis(100),
                        StorageErrorMode.FAIL_OPEN,
                        POLICY.cacheable());

        assertThatThrownBy(() -> contended.admit(op("fp", failOpen)))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(decisions()).containsExactly(Decision.IN_FLIGHT_WAIT, Decision.CONFLICT);
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
        // The operation ran; only its result is lost: complete_failed, not storage_error.
        assertThat(decisions()).containsExactly(Decision.COMPLETE_FAILED);
        assertThat(events.get(0).storageFailureKind())
                .contains(IdempotencyStorageException.Kind.FAILED);
    }

    @Test
    void aFullStore_refusesWithAWarning_onEverySurface() {
        CapturedLog log = CapturedLog.of(IdempotencyEngine.class.getName());
        try {
            IdempotencyEngine full =
                    engineOn(
                            new FailingStore(
                                    new IdempotencyStorageException(
                                            IdempotencyStorageException.Kind.REFUSED,
                                            "The in-memory idempotency store is full",
                                            null)));
            IdempotencyEngine down =
                    engineOn(new FailingStore(new IdempotencyStorageException("down")));

            assertThatThrownBy(() -> full.admit(op("fp")))
                    .isInstanceOf(IdempotencyStorageException.class);
            assertThatThrownBy(() -> down.admit(op("fp")))
                    .isInstanceOf(IdempotencyStorageException.class);
        } finally {
            log.close();
        }

        // The refusal is the engine's to say; an outage is the caller's (it gets the exception).
        assertThat(log.warnings())
                .containsExactly(
                        "idemkit refused an operation: The in-memory idempotency store is full");
    }
}
