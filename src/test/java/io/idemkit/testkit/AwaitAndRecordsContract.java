package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Waiting, reading and erasing records (C3): {@code awaitCompletion} is woken by a completion long
 * before its timeout, is empty after its timeout or as soon as the claim is released, and answers
 * at once for a completed record or an absent key; a record of another fingerprint version is
 * answered, taken over and expired like any other, never overwritten while it is live; an
 * unreadable record (a fingerprint version below 1, or raw data the store cannot read) is ABSENT
 * and the claim over it reports {@code recoveredFromCorrupt}; {@code find}, {@code delete} (the
 * admin erase) and {@code name}; and {@code health()} and {@code purgeExpired()}, which never
 * deletes a live claim or result; and {@code countAttempt}, an atomic count apart from every record
 * that expires with its retention.
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

    // --- records of another fingerprint version (C3) ---------------------------------------

    // A node of another release shares the store in a rolling upgrade: its records are records,
    // answered and taken over like any other, and never overwritten while they are live.

    @Test
    void liveClaimOfAnotherFingerprintVersion_isAnsweredAsClaimed_andNeverOverwritten() {
        String key = newKey();
        Instant now = store().now();
        IdempotencyRecord theirs =
                plantRecord(
                        IdempotencyRecord.claimed(
                                key, FP, V2, ClaimToken.random(), now, now.plus(longLease())));

        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        assertThat(claim.record().fingerprintVersion()).isEqualTo(V2);
        assertThat(claim.record().token()).isEqualTo(theirs.token());
        assertThat(store().find(key).map(IdempotencyRecord::token)).contains(theirs.token());
        // Its owner still holds it.
        assertThat(store().complete(key, theirs.token(), result("theirs"), longLease())).isTrue();
    }

    @Test
    void liveResultOfAnotherFingerprintVersion_isAnsweredAsCompleted_andNeverOverwritten()
            throws Exception {
        String key = newKey();
        Instant now = store().now();
        IdempotencyRecord theirs =
                plantRecord(
                        IdempotencyRecord.claimed(key, FP, V2, ClaimToken.random(), now, now)
                                .complete(now, now.plus(longLease()), result("theirs")));

        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        assertThat(claim.record().fingerprintVersion()).isEqualTo(V2);
        assertThat(claim.record().token()).isEqualTo(theirs.token());
        assertThat(claim.record().result()).isEqualTo(result("theirs"));
        assertThat(store().find(key).map(IdempotencyRecord::token)).contains(theirs.token());
        assertThat(store().awaitCompletion(key, Duration.ofMinutes(2)))
                .map(IdempotencyRecord::fingerprintVersion)
                .contains(V2);
    }

    @Test
    void lapsedClaimOfAnotherFingerprintVersion_isReclaimed() {
        String key = newKey();
        Instant now = store().now();
        IdempotencyRecord theirs =
                plantRecord(
                        IdempotencyRecord.claimed(
                                key,
                                FP,
                                V2,
                                ClaimToken.random(),
                                now.minus(units(3)),
                                now.minus(units(1))));

        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        assertThat(claim.token()).isNotEqualTo(theirs.token());
        assertThat(claim.record().fingerprintVersion()).isEqualTo(V1);
        assertThat(store().find(key).map(IdempotencyRecord::token)).contains(claim.token());
        assertThat(store().complete(key, theirs.token(), result("late"), longLease())).isFalse();
    }

    @Test
    void expiredResultOfAnotherFingerprintVersion_isAbsent_andClaimedAsNew() {
        String key = newKey();
        Instant now = store().now();
        plantRecord(
                IdempotencyRecord.claimed(
                                key, FP, V2, ClaimToken.random(), now.minus(units(4)), now)
                        .complete(now.minus(units(3)), now.minus(units(1)), result("theirs")));

        assertThat(store().find(key)).isEmpty();
        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        assertThat(claim.record().fingerprintVersion()).isEqualTo(V1);
    }

    // --- corrupt records -----------------------------------------------------------------

    @Test
    void recordOfFingerprintVersionBelowOne_isUnreadable_andItsClaimReportsRecovery() {
        String key = newKey();
        Instant now = store().now();
        plantRecord(
                IdempotencyRecord.claimed(
                        key, FP, 0, ClaimToken.random(), now, now.plus(longLease())));

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

    // --- attempt counts (C3, C11.3) ----------------------------------------------------------

    @Test
    void countAttempt_countsUp_survivesARelease_andKeepsKeysApart() {
        String record = newKey();
        String attempts = newKey();
        String other = newKey();
        if (!countsAttempts()) {
            assertThatThrownBy(() -> store().countAttempt(attempts, longLease()))
                    .isInstanceOf(UnsupportedOperationException.class);
            return;
        }

        assertThat(store().countAttempt(attempts, longLease())).isEqualTo(1);
        store().release(record, claimNew(record));
        assertThat(store().countAttempt(attempts, longLease())).isEqualTo(2);
        assertThat(store().countAttempt(other, longLease())).isEqualTo(1);
        assertThat(store().countAttempt(attempts, longLease())).isEqualTo(3);
        // A count is no record.
        assertThat(store().find(attempts)).isEmpty();
    }

    @Test
    void countAttempt_startsOverOnceItsRetentionHasPassed() {
        assumeTrue(countsAttempts());
        String attempts = newKey();
        store().countAttempt(attempts, units(2));
        store().countAttempt(attempts, units(2));

        elapse(units(3));

        assertThat(store().countAttempt(attempts, units(2))).isEqualTo(1);
    }

    @Test
    void countAttempt_racedByManyThreads_givesEveryOneADifferentCount() throws Exception {
        assumeTrue(countsAttempts());
        assumeTrue(
                countsAtomicallyUnderRaces(),
                "this test server does not apply racing updates of one document one at a time");
        String attempts = newKey();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                counts.add(
                        pool.submit(
                                () -> {
                                    start.await();
                                    return store().countAttempt(attempts, longLease());
                                }));
            }
            start.countDown();
            Set<Long> seen = new HashSet<>();
            for (Future<Long> count : counts) {
                seen.add(count.get(30, TimeUnit.SECONDS));
            }
            assertThat(seen).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void countAttempt_refusesABadKeyOrRetention_beforeTouchingTheStore() {
        assumeTrue(countsAttempts());
        assertThatThrownBy(() -> store().countAttempt(null, longLease()))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> store().countAttempt("bad key", longLease()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().countAttempt(newKey(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
