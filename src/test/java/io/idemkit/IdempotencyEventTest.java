package io.idemkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyStorageException.Kind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The event's components: the storage-failure kind, given for the store's failures ({@code
 * storage_error}, {@code ran_unprotected}, {@code complete_failed}) and only for them; the wait.
 */
class IdempotencyEventTest {

    private static final String KEY = "a".repeat(64);

    @Test
    void storageError_carriesItsKind() {
        IdempotencyEvent event = event(Decision.STORAGE_ERROR, Kind.UNREACHABLE);

        assertThat(event.storageFailureKind()).contains(Kind.UNREACHABLE);
        assertThat(event.storageFailure().attributeValue()).isEqualTo("unreachable");
    }

    @Test
    void storageErrorWithoutAKind_isRefused() {
        assertThatThrownBy(() -> event(Decision.STORAGE_ERROR, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("STORAGE_ERROR");
    }

    @Test
    void otherDecisionWithAKind_isRefused() {
        assertThatThrownBy(() -> event(Decision.REPLAYED, Kind.FAILED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REPLAYED");
    }

    @Test
    void everyStoreFailure_carriesItsKind_andNoOtherDecisionDoes() {
        for (Decision decision : Decision.values()) {
            if (decision.isStoreFailure()) {
                assertThat(event(decision, Kind.REFUSED).storageFailureKind())
                        .contains(Kind.REFUSED);
                assertThatThrownBy(() -> event(decision, null))
                        .isInstanceOf(IllegalArgumentException.class);
            } else {
                assertThatThrownBy(() -> event(decision, Kind.FAILED))
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
        assertThat(Decision.values())
                .filteredOn(Decision::isStoreFailure)
                .containsExactlyInAnyOrder(
                        Decision.STORAGE_ERROR, Decision.RAN_UNPROTECTED, Decision.COMPLETE_FAILED);
    }

    @Test
    void waitDuration_isZeroUnlessGiven_andNeverNegative() {
        assertThat(event(Decision.REPLAYED, null).waitDuration()).isZero();
        assertThat(
                        new IdempotencyEvent(
                                        Decision.REPLAYED,
                                        KEY,
                                        Duration.ofSeconds(2),
                                        "memory",
                                        1,
                                        "http",
                                        null,
                                        Duration.ofSeconds(1))
                                .waitDuration())
                .isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(
                        () ->
                                new IdempotencyEvent(
                                        Decision.REPLAYED,
                                        KEY,
                                        Duration.ZERO,
                                        "memory",
                                        1,
                                        "http",
                                        null,
                                        Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Decision.RAN_UNPROTECTED.eventName()).isEqualTo("idempotency.ran_unprotected");
    }

    @Test
    void sixComponentConstructor_givesStorageErrorKindFailedAndOthersNone() {
        assertThat(
                        new IdempotencyEvent(
                                        Decision.STORAGE_ERROR,
                                        KEY,
                                        Duration.ZERO,
                                        "memory",
                                        1,
                                        "http")
                                .storageFailureKind())
                .contains(Kind.FAILED);
        assertThat(
                        new IdempotencyEvent(Decision.NEW, KEY, Duration.ZERO, "memory", 1, "http")
                                .storageFailureKind())
                .isEmpty();
    }

    @Test
    void kindOf_anythingButAStorageException_isFailed() {
        assertThat(IdempotencyStorageException.kindOf(new IllegalStateException("bug")))
                .isEqualTo(Kind.FAILED);
        assertThat(
                        IdempotencyStorageException.kindOf(
                                new IdempotencyStorageException(Kind.REFUSED, "full", null)))
                .isEqualTo(Kind.REFUSED);
        assertThat(new IdempotencyStorageException("down").kind()).isEqualTo(Kind.FAILED);
    }

    private static IdempotencyEvent event(Decision decision, Kind kind) {
        return new IdempotencyEvent(decision, KEY, Duration.ZERO, "memory", 1, "http", kind);
    }
}
