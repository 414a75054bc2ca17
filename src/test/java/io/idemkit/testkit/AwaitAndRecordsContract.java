package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreHealth;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Waiting, reading and erasing records (C3): {@code awaitCompletion} is woken by a completion long
 * before its timeout, is empty after its timeout or as soon as the claim is released, and answers
 * at once for a completed record or an absent key; an unreadable record (an unknown fingerprint
 * version, or raw data the store cannot read) is ABSENT and the claim over it reports {@code
 * recoveredFromCorrupt}; {@code find}, {@code delete} (the admin erase) and {@code name}; and
 * {@code health()} and {@code purgeExpired()}, which never deletes a live claim or result.
 */
abstract class AwaitAndRecordsContract extends LeaseAndFencingContract {

    // --- awaitCompletion -----------------------------------------------------------------

    @Test
    void awaitCompletion_isWokenByCompletionLongBeforeItsTimeout() throws Exception {
        String key = newKey();
        ClaimToken token = claimNew(key);
        try (ParkedWaiter waiter = ParkedWaiter.start(() -> awaitTwoMinutes(key))) {
            store().complete(key, token, result("hi"), longLease());

            Optional<IdempotencyRecord> record = waiter.result(Duration.ofSeconds(10));
            assertThat(record).isPresent();
            assertThat(record.get().state()).isEqualTo(RecordState.COMPLETED);
            assertThat(record.get().result()).isEqualTo(result("hi"));
        }
    }

    @Test
    void awaitCompletion_onNeverCompletingClaim_isEmptyAfterTheTimeout() throws Exception {
        String key = newKey();
        claimNew(key);

        Optional<IdempotencyRecord> record = store().awaitCompletion(key, Duration.ofMillis(300));

        assertThat(record).isEmpty();
        assertThat(store().find(key).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void awaitCompletion_whenTheClaimIsReleased_isEmptyLongBeforeItsTimeout() throws Exception {
        String key = newKey();
        ClaimToken token = claimNew(key);
        try (ParkedWaiter waiter = ParkedWaiter.start(() -> awaitTwoMinutes(key))) {
            store().release(key, token);

            assertThat(waiter.result(Duration.ofSeconds(10))).isEmpty();
        }
    }

    private Optional<IdempotencyRecord> awaitTwoMinutes(String key) throws InterruptedException {
        return store().awaitCompletion(key, Duration.ofMinutes(2));
    }

    @Test
    void awaitCompletion_onCompletedRecord_returnsItAtOnce() throws Exception {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("done"), longLease());

        Optional<IdempotencyRecord> record = store().awaitCompletion(key, Duration.ofMinutes(2));

        assertThat(record).get().extracting(IdempotencyRecord::result).isEqualTo(result("done"));
    }

    @Test
    void awaitCompletion_onAbsentKey_isEmptyAtOnce() throws Exception {
        assertThat(store().awaitCompletion(newKey(), Duration.ofMinutes(2))).isEmpty();
    }

    // --- corrupt records -----------------------------------------------------------------

    @Test
    void recordWithUnknownFingerprintVersion_isAbsentAndItsClaimReportsRecovery() {
        String key = newKey();
        store().claim(key, FP, 99, longLease());

        assertThat(store().find(key)).isEmpty();
        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isTrue();
        assertThat(store().find(key).orElseThrow().token()).isEqualTo(claim.token());
    }

    @Test
    void unreadableRawRecord_isAbsentAndItsClaimReportsRecovery() {
        String key = newKey();
        plantUnreadableRecord(key);

        assertThat(store().find(key)).isEmpty();
        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isTrue();
        assertThat(store().complete(key, claim.token(), result("ok"), longLease())).isTrue();
        assertThat(store().claim(key, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
    }

    // --- find and delete -----------------------------------------------------------------

    @Test
    void find_onAbsentKey_isEmpty() {
        assertThat(store().find(newKey())).isEmpty();
    }

    @Test
    void delete_erasesAClaimedOrCompletedRecordAndFreesTheKey() {
        String claimed = newKey();
        claimNew(claimed);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("x"), longLease());

        assertThat(store().delete(claimed)).isTrue();
        assertThat(store().delete(completed)).isTrue();

        assertThat(store().find(claimed)).isEmpty();
        assertThat(store().find(completed)).isEmpty();
        assertThat(store().claim(completed, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void delete_onAbsentKey_isFalse() {
        assertThat(store().delete(newKey())).isFalse();
    }

    @Test
    void name_isShortAndStable() {
        assertThat(store().name()).isNotBlank().isEqualTo(store().name());
    }

    // --- health and purge (C3) ---------------------------------------------------------------

    @Test
    void health_ofAStoreThatServesClaims_isUpWithDetailsOfTheDocumentedTypes() {
        StoreHealth health = store().health();

        assertThat(health.up()).isTrue();
        assertThat(health.details().values())
                .allSatisfy(
                        v ->
                                assertThat(v)
                                        .isInstanceOfAny(String.class, Long.class, Boolean.class));
    }

    @Test
    void purgeExpired_neverDeletesALiveClaimOrALiveResult() {
        String claimed = newKey();
        claimNew(claimed);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("x"), longLease());

        Throwable refused = catchThrowable(() -> store().purgeExpired());

        if (purgesOnDemand()) {
            assertThat(refused).isNull();
        } else {
            assertThat(refused).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(store().find(claimed))
                .map(IdempotencyRecord::state)
                .contains(RecordState.CLAIMED);
        assertThat(store().find(completed))
                .map(IdempotencyRecord::state)
                .contains(RecordState.COMPLETED);
    }
}
