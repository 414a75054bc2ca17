package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The store contract suite (contract C2, C3): what every {@link IdempotencyStore} must do. Extend
 * it in a test of your store and implement {@link #store()} and {@link #elapse(Duration)}; a store
 * that can hold raw unreadable data also overrides {@link #plantUnreadableRecord(String)}.
 *
 * <p>Each test uses fresh random keys, so the suite can run against a shared, persistent store.
 * Leases and TTLs are multiples of {@link #leaseUnit()}, and every check that a lease is still live
 * happens well inside it, so stores on a real clock pass on a loaded machine.
 */
public abstract class IdempotencyStoreContract {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String FP = "f".repeat(64);
    private static final int V1 = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    /**
     * @return the store under test; the same or a new instance on each call
     */
    protected abstract IdempotencyStore store();

    /**
     * Lets {@code amount} pass on the store's clock: move a manual clock, or wait in real time
     * until the store's clock has moved that far.
     *
     * @param amount how much time must pass
     */
    protected abstract void elapse(Duration amount);

    /**
     * @return the unit of every lease and TTL in the suite: comfortably longer than a few round
     *     trips to the store. Stores on a real clock keep the default; manual clocks may use any.
     */
    protected Duration leaseUnit() {
        return Duration.ofMillis(500);
    }

    /**
     * Writes raw data under {@code key} that the store cannot read as a record (a wrong type, a
     * missing field). Stores whose records are always well-typed leave this as it is, and the test
     * that needs it is skipped.
     *
     * @param key the effective key to corrupt
     */
    protected void plantUnreadableRecord(String key) {
        Assumptions.abort("this store cannot hold unreadable raw data");
    }

    /**
     * @return a fresh random effective key
     */
    protected static String newKey() {
        byte[] bits = new byte[32];
        RANDOM.nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }

    private Duration units(long n) {
        return leaseUnit().multipliedBy(n);
    }

    private Duration longLease() {
        return units(60);
    }

    private static StoredResult result(String body) {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/1")),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private ClaimToken claimNew(String key) {
        ClaimResult claim = store().claim(key, FP, V1, longLease());
        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        return claim.token();
    }

    // --- claim ---------------------------------------------------------------------------

    @Test
    void freshKey_claimIsNewWithTokenAndClaimedRecord() {
        String key = newKey();
        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        IdempotencyRecord record = claim.record();
        assertThat(record.key()).isEqualTo(key);
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.fingerprint()).isEqualTo(FP);
        assertThat(record.fingerprintVersion()).isEqualTo(V1);
        assertThat(record.leaseUntil()).isAfter(record.claimedAt());
        assertThat(claim.token().value()).hasSizeGreaterThanOrEqualTo(32);
    }

    @Test
    void secondClaimOnLiveKey_isAlreadyClaimedAndReturnsOwnersRecord() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        ClaimResult second = store().claim(key, "other-fingerprint", V1, longLease());

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record().token()).isEqualTo(owner);
        assertThat(second.record().fingerprint()).isEqualTo(FP);
    }

    @Test
    void claimTokens_differForEveryWonClaim() {
        List<ClaimToken> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            tokens.add(claimNew(newKey()));
        }
        assertThat(tokens).doesNotHaveDuplicates();
    }

    // --- complete ------------------------------------------------------------------------

    @Test
    void completeWithOwnToken_storesResultThatTheNextClaimReplays() {
        String key = newKey();
        ClaimToken token = claimNew(key);

        assertThat(store().complete(key, token, result("body"), longLease())).isTrue();

        ClaimResult after = store().claim(key, FP, V1, longLease());
        assertThat(after.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(after.record().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(after.record().result()).isEqualTo(result("body"));
        assertThat(after.record().fingerprint()).isEqualTo(FP);
        assertThat(after.record().completedAt()).isNotNull();
        assertThat(after.record().expiresAt()).isAfter(after.record().completedAt());
    }

    @Test
    void completedResult_roundTripsStatusHeadersInOrderAndBinaryBodyVerbatim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        byte[] body = new byte[70_000];
        RANDOM.nextBytes(body);
        body[0] = 0;
        StoredResult stored =
                new StoredResult(
                        299,
                        List.of(
                                new StoredHeader("Link", "</a>; rel=next"),
                                new StoredHeader("Content-Type", "application/octet-stream"),
                                new StoredHeader("Link", "</b>; rel=prev"),
                                new StoredHeader("X.Dotted$Name", "")),
                        body);

        assertThat(store().complete(key, token, stored, longLease())).isTrue();

        assertThat(store().find(key)).get().extracting(IdempotencyRecord::result).isEqualTo(stored);
    }

    @Test
    void completedResult_withEmptyBody_roundTrips() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        StoredResult empty = new StoredResult(204, List.of(), new byte[0]);

        store().complete(key, token, empty, longLease());

        assertThat(store().claim(key, FP, V1, longLease()).record().result()).isEqualTo(empty);
    }

    @Test
    void completeWithWrongToken_isRejectedAndLeavesTheClaim() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        assertThat(store().complete(key, ClaimToken.random(), result("x"), longLease())).isFalse();

        IdempotencyRecord record = store().find(key).orElseThrow();
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.token()).isEqualTo(owner);
    }

    @Test
    void completeTwice_secondIsRejectedAndFirstResultStays() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("first"), longLease());

        assertThat(store().complete(key, token, result("second"), longLease())).isFalse();

        assertThat(store().find(key).orElseThrow().result()).isEqualTo(result("first"));
    }

    @Test
    void completeOnAbsentKey_isRejected() {
        String key = newKey();
        assertThat(store().complete(key, ClaimToken.random(), result("x"), longLease())).isFalse();
        assertThat(store().find(key)).isEmpty();
    }

    // --- release -------------------------------------------------------------------------

    @Test
    void releaseWithOwnToken_freesTheKeyForANewClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);

        assertThat(store().release(key, token)).isTrue();

        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void releaseWithWrongToken_isRejectedAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        assertThat(store().release(key, ClaimToken.random())).isFalse();

        assertThat(store().find(key).orElseThrow().token()).isEqualTo(owner);
    }

    @Test
    void releaseOfCompletedRecord_isRejectedAndKeepsTheResult() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("kept"), longLease());

        assertThat(store().release(key, token)).isFalse();

        assertThat(store().find(key).orElseThrow().result()).isEqualTo(result("kept"));
    }

    // --- leases, reclaim and fencing -----------------------------------------------------

    @Test
    void expiredLease_isReclaimedWithANewToken() {
        String key = newKey();
        ClaimToken first = store().claim(key, FP, V1, units(1)).token();

        elapse(units(2));
        ClaimResult second = store().claim(key, FP, V1, longLease());

        assertThat(second.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(second.token()).isNotEqualTo(first);
        assertThat(second.record().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void liveLease_isNotReclaimed() {
        String key = newKey();
        ClaimToken owner = store().claim(key, FP, V1, units(8)).token();

        elapse(units(1));
        ClaimResult second = store().claim(key, FP, V1, longLease());

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record().token()).isEqualTo(owner);
    }

    @Test
    void afterReclaim_oldOwnersCompleteReleaseAndRenewAllFail() {
        String key = newKey();
        ClaimToken stale = store().claim(key, FP, V1, units(1)).token();
        elapse(units(2));
        ClaimToken current = store().claim(key, FP, V1, longLease()).token();

        assertThat(store().complete(key, stale, result("zombie"), longLease())).isFalse();
        assertThat(store().release(key, stale)).isFalse();
        assertThat(store().renew(key, stale, longLease())).isFalse();

        IdempotencyRecord record = store().find(key).orElseThrow();
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.token()).isEqualTo(current);
    }

    @Test
    void crashAfterClaim_thenLeaseExpiry_nextCallerReclaimsAndCompletes() {
        String key = newKey();
        store().claim(key, FP, V1, units(1)); // the executor dies here: no complete, no release

        elapse(units(2));
        ClaimResult retry = store().claim(key, FP, V1, longLease());

        assertThat(retry.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(store().complete(key, retry.token(), result("done"), longLease())).isTrue();
        assertThat(store().claim(key, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
    }

    @Test
    void expiredButNotTakenOverLease_canStillBeCompletedByItsOwner() {
        String key = newKey();
        ClaimToken owner = store().claim(key, FP, V1, units(1)).token();
        elapse(units(2));

        assertThat(store().complete(key, owner, result("late"), longLease())).isTrue();

        assertThat(store().claim(key, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
    }

    @Test
    void renew_extendsTheLeaseSoItIsNotReclaimed() {
        String key = newKey();
        ClaimToken owner = store().claim(key, FP, V1, units(2)).token();

        assertThat(store().renew(key, owner, units(30))).isTrue();
        elapse(units(4));

        ClaimResult other = store().claim(key, FP, V1, longLease());
        assertThat(other.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(other.record().token()).isEqualTo(owner);
    }

    @Test
    void renewWithWrongToken_isRejectedAndLeavesTheLease() {
        String key = newKey();
        store().claim(key, FP, V1, units(2));

        assertThat(store().renew(key, ClaimToken.random(), units(30))).isFalse();

        elapse(units(4));
        assertThat(store().claim(key, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.LEASE_RECLAIMED);
    }

    @Test
    void renewOfCompletedRecord_isRejected() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("x"), longLease());

        assertThat(store().renew(key, token, longLease())).isFalse();
        assertThat(store().find(key).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }

    // --- completed TTL -------------------------------------------------------------------

    @Test
    void completedTtl_countsFromCompletionAndIsNotExtendedByReads() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        elapse(units(3));
        store().complete(key, token, result("x"), units(4));

        // 2 units after completion (5 after the claim): still replayed, and read twice.
        elapse(units(2));
        assertThat(store().claim(key, FP, V1, longLease()).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(store().find(key)).isPresent();

        // 5 units after completion: gone, although it was read a moment ago.
        elapse(units(3));
        assertThat(store().find(key)).isEmpty();
        ClaimResult fresh = store().claim(key, FP, V1, longLease());
        assertThat(fresh.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(fresh.recoveredFromCorrupt()).isFalse();
    }

    // --- concurrency ---------------------------------------------------------------------

    @Test
    void concurrentClaims_sixteenThreadsOnFiveHundredKeys_exactlyOneWinnerPerKey()
            throws Exception {
        int threads = 16;
        int keys = 500;
        List<String> keyList = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            keyList.add(newKey());
        }
        Map<String, AtomicInteger> winners = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> losers = new ConcurrentHashMap<>();
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                runs.add(
                        pool.submit(
                                () -> {
                                    for (String key : keyList) {
                                        barrier.await(30, TimeUnit.SECONDS);
                                        ClaimResult claim = store().claim(key, FP, V1, longLease());
                                        (claim.status().won() ? winners : losers)
                                                .computeIfAbsent(key, k -> new AtomicInteger())
                                                .incrementAndGet();
                                        if (!claim.status().won()) {
                                            assertThat(claim.status())
                                                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> run : runs) {
                run.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(winners).hasSize(keys);
        assertThat(winners.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(losers.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(threads - 1));
    }

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
}
