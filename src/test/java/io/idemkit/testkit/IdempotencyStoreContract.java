package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tuple;
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
     * @return whether the store implements {@link IdempotencyStore#purgeExpired()}; {@code true}
     *     unless a store overrides it, and then the contract expects the SPI's default refusal
     */
    protected boolean purgesOnDemand() {
        return true;
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

    // --- input rules (IdempotencyStore's Javadoc, "Input rules") -----------------------------

    /**
     * Keys that break the key rule, each built from {@code base} so that a store that mangled one
     * into a legal key would write under {@code base}, where the tests look.
     */
    private static Map<String, String> invalidKeysFrom(String base) {
        Map<String, String> keys = new java.util.LinkedHashMap<>();
        keys.put("empty", "");
        keys.put("one character too long", base + "a".repeat(MAX_KEY - base.length() + 1));
        keys.put("a megabyte long", base.repeat(16_384));
        keys.put("with a space", base + " ");
        keys.put("with a tab", base + "\t");
        keys.put("with NUL", base + "\u0000");
        keys.put("with DEL", base + "\u007f");
        keys.put("with a non-ASCII letter", base + "\u00e9");
        keys.put("with an emoji", base + "\ud83d\ude00");
        keys.put("with a lone surrogate", base + "\ud800");
        return keys;
    }

    private static final int MAX_KEY = io.idemkit.spi.StoreArguments.MAX_KEY_LENGTH;

    /** Invalid leases and retentions, by the rule each breaks. */
    private static Map<String, Duration> invalidTtls() {
        Map<String, Duration> ttls = new java.util.LinkedHashMap<>();
        ttls.put("zero", Duration.ZERO);
        ttls.put("negative", Duration.ofSeconds(-30));
        ttls.put("the most negative duration", Duration.ofSeconds(Long.MIN_VALUE));
        ttls.put("below a millisecond", Duration.ofNanos(999_999));
        ttls.put("past 100 years", io.idemkit.spi.StoreArguments.MAX_TTL.plusNanos(1));
        ttls.put("the longest duration", Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
        return ttls;
    }

    /**
     * A result this store refuses as too large, if it has a limit: the contract then checks that
     * the refusal is an {@code IdempotencyStorageException} that writes nothing. Stores without a
     * limit keep the default, and that test is skipped.
     *
     * @return a result past the store's limit, or empty
     */
    protected Optional<StoredResult> resultTooLargeToStore() {
        return Optional.empty();
    }

    @Test
    void everyKeyedMethod_nullKey_throwsNullPointerException() {
        ClaimToken token = ClaimToken.random();
        assertThatNullPointerException().isThrownBy(() -> store().claim(null, FP, V1, longLease()));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(null, token, result("x"), longLease()));
        assertThatNullPointerException().isThrownBy(() -> store().release(null, token));
        assertThatNullPointerException().isThrownBy(() -> store().renew(null, token, longLease()));
        assertThatNullPointerException()
                .isThrownBy(() -> store().awaitCompletion(null, Duration.ZERO));
        assertThatNullPointerException().isThrownBy(() -> store().find(null));
        assertThatNullPointerException().isThrownBy(() -> store().delete(null));
    }

    @Test
    void claim_invalidKey_throwsIllegalArgumentExceptionAndWritesNothing() {
        String base = newKey();
        invalidKeysFrom(base)
                .forEach(
                        (rule, key) ->
                                assertThatIllegalArgumentException()
                                        .as("a key %s", rule)
                                        .isThrownBy(() -> store().claim(key, FP, V1, longLease())));

        assertThat(store().find(base)).isEmpty();
        ClaimResult claim = store().claim(base, FP, V1, longLease());
        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
    }

    @Test
    void fencedFindAndDelete_invalidKey_throwIllegalArgumentExceptionAndChangeNothing()
            throws Exception {
        String base = newKey();
        ClaimToken token = claimNew(base);
        IdempotencyRecord before = store().find(base).orElseThrow();
        for (Map.Entry<String, String> bad : invalidKeysFrom(base).entrySet()) {
            String key = bad.getValue();
            String rule = "a key " + bad.getKey();
            assertThatIllegalArgumentException()
                    .as("complete, " + rule)
                    .isThrownBy(() -> store().complete(key, token, result("x"), longLease()));
            assertThatIllegalArgumentException()
                    .as("renew, " + rule)
                    .isThrownBy(() -> store().renew(key, token, longLease()));
            assertThatIllegalArgumentException()
                    .as("release, " + rule)
                    .isThrownBy(() -> store().release(key, token));
            assertThatIllegalArgumentException()
                    .as("delete, " + rule)
                    .isThrownBy(() -> store().delete(key));
            assertThatIllegalArgumentException()
                    .as("find, " + rule)
                    .isThrownBy(() -> store().find(key));
            assertThatIllegalArgumentException()
                    .as("awaitCompletion, " + rule)
                    .isThrownBy(() -> store().awaitCompletion(key, Duration.ZERO));
        }

        assertThat(store().find(base)).contains(before);
    }

    @Test
    void claim_keyOfEveryPrintableAsciiCharacterAndOfTheLongestLength_isAccepted() {
        StringBuilder printable = new StringBuilder(newKey().substring(0, 16));
        for (char c = 0x21; c <= 0x7E; c++) {
            printable.append(c);
        }
        String longest = newKey() + "z".repeat(MAX_KEY - 64);
        for (String key : List.of(printable.toString(), longest)) {
            ClaimToken token = claimNew(key);
            assertThat(store().complete(key, token, result("ok"), longLease())).isTrue();
            assertThat(store().find(key)).get().extracting(IdempotencyRecord::key).isEqualTo(key);
            assertThat(store().delete(key)).isTrue();
        }
    }

    @Test
    void claim_nullFingerprint_throwsNullPointerExceptionAndWritesNothing() {
        String key = newKey();
        assertThatNullPointerException()
                .isThrownBy(() -> store().claim(key, null, V1, longLease()));
        assertThat(store().find(key)).isEmpty();
    }

    @Test
    void claim_invalidFingerprint_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        for (String fingerprint :
                List.of(
                        "",
                        "f".repeat(io.idemkit.spi.StoreArguments.MAX_FINGERPRINT_LENGTH + 1),
                        FP + " ",
                        FP + "\u00e9",
                        FP + "\udfff",
                        FP + "\n")) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> store().claim(key, fingerprint, V1, longLease()));
        }
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claim_fingerprintVersionBelowOne_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        for (int version : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatIllegalArgumentException()
                    .as("version %d", version)
                    .isThrownBy(() -> store().claim(key, FP, version, longLease()));
        }
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claim_unknownFingerprintVersion_isWrittenButReadsAsAbsent() {
        String key = newKey();
        ClaimResult claim = store().claim(key, FP, Integer.MAX_VALUE, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.record().fingerprintVersion()).isEqualTo(Integer.MAX_VALUE);
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).recoveredFromCorrupt()).isTrue();
    }

    @Test
    void claim_nullLeaseTtl_throwsNullPointerExceptionAndWritesNothing() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().claim(key, FP, V1, null));
        assertThat(store().find(key)).isEmpty();
    }

    @Test
    void claim_leaseTtlOutOfRange_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a lease %s", rule)
                                        .isThrownBy(() -> store().claim(key, FP, V1, ttl)));
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claimRenewAndComplete_ttlsAtBothEndsOfTheRange_areAccepted() {
        Duration max = io.idemkit.spi.StoreArguments.MAX_TTL;
        String shortest = newKey();
        ClaimResult brief = store().claim(shortest, FP, V1, Duration.ofMillis(1));
        assertThat(brief.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(brief.record().leaseUntil()).isAfterOrEqualTo(brief.record().claimedAt());

        String longest = newKey();
        ClaimResult claim = store().claim(longest, FP, V1, max);
        assertThat(claim.record().leaseUntil())
                .isAfter(claim.record().claimedAt().plus(max.minusDays(1)));
        assertThat(store().renew(longest, claim.token(), max)).isTrue();
        assertThat(store().complete(longest, claim.token(), result("kept"), max)).isTrue();
        IdempotencyRecord completed = store().find(longest).orElseThrow();
        assertThat(completed.expiresAt()).isAfter(completed.completedAt().plus(max.minusDays(1)));
    }

    @Test
    void fencedCalls_nullToken_throwNullPointerExceptionAndChangeNothing() {
        String key = newKey();
        claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, null, result("x"), longLease()));
        assertThatNullPointerException().isThrownBy(() -> store().release(key, null));
        assertThatNullPointerException().isThrownBy(() -> store().renew(key, null, longLease()));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void fencedCalls_tokenOfAnotherKey_areFalseAndChangeNeitherRecord() {
        String mine = newKey();
        String theirs = newKey();
        claimNew(mine);
        ClaimToken theirToken = claimNew(theirs);
        IdempotencyRecord mineBefore = store().find(mine).orElseThrow();
        IdempotencyRecord theirsBefore = store().find(theirs).orElseThrow();

        assertThat(store().complete(mine, theirToken, result("x"), longLease())).isFalse();
        assertThat(store().renew(mine, theirToken, longLease())).isFalse();
        assertThat(store().release(mine, theirToken)).isFalse();

        assertThat(store().find(mine)).contains(mineBefore);
        assertThat(store().find(theirs)).contains(theirsBefore);
    }

    @Test
    void complete_nullResult_throwsNullPointerExceptionAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, token, null, longLease()));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void complete_headerWithLoneSurrogate_throwsIllegalArgumentExceptionAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();
        StoredResult badValue =
                new StoredResult(200, List.of(new StoredHeader("X-A", "a\ud800")), new byte[0]);
        StoredResult badName =
                new StoredResult(200, List.of(new StoredHeader("X-\udc00", "a")), new byte[0]);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().complete(key, token, badValue, longLease()));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().complete(key, token, badName, longLease()));

        assertThat(store().find(key)).contains(before);
        StoredResult pair =
                new StoredResult(
                        200, List.of(new StoredHeader("X-Emoji", "\ud83d\ude00")), new byte[0]);
        assertThat(store().complete(key, token, pair, longLease())).isTrue();
        assertThat(store().find(key).orElseThrow().result()).isEqualTo(pair);
    }

    @Test
    void complete_completedTtlNullOrOutOfRange_throwsAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, token, result("x"), null));
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a retention %s", rule)
                                        .isThrownBy(
                                                () ->
                                                        store().complete(
                                                                        key,
                                                                        token,
                                                                        result("x"),
                                                                        ttl)));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void complete_resultPastTheStoresLimit_throwsStorageExceptionAndKeepsTheClaim() {
        StoredResult tooLarge =
                resultTooLargeToStore()
                        .orElseGet(
                                () -> {
                                    Assumptions.abort("this store has no result size limit");
                                    return null;
                                });
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatExceptionOfType(IdempotencyStorageException.class)
                .isThrownBy(() -> store().complete(key, token, tooLarge, longLease()));

        assertThat(store().find(key)).contains(before);
        assertThat(store().complete(key, token, result("smaller"), longLease())).isTrue();
    }

    @Test
    void renew_leaseTtlNullOrOutOfRange_throwsAndLeavesTheLease() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        IdempotencyRecord before = store().find(key).orElseThrow();

        assertThatNullPointerException().isThrownBy(() -> store().renew(key, token, null));
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a lease %s", rule)
                                        .isThrownBy(() -> store().renew(key, token, ttl)));

        assertThat(store().find(key)).contains(before);
    }

    @Test
    void awaitCompletion_nullOrNegativeTimeout_throws() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().awaitCompletion(key, null));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().awaitCompletion(key, Duration.ofNanos(-1)));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().awaitCompletion(key, Duration.ofSeconds(Long.MIN_VALUE)));
    }

    @Test
    void awaitCompletion_zeroTimeout_looksOnceWithoutWaiting() throws Exception {
        String claimed = newKey();
        claimNew(claimed);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("done"), longLease());

        assertThat(store().awaitCompletion(claimed, Duration.ZERO)).isEmpty();
        assertThat(store().awaitCompletion(completed, Duration.ZERO))
                .get()
                .extracting(IdempotencyRecord::result)
                .isEqualTo(result("done"));
    }

    @Test
    void awaitCompletion_theLongestTimeout_returnsAtOnceWhenThereIsNothingToWaitFor()
            throws Exception {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        String completed = newKey();
        store().complete(completed, claimNew(completed), result("done"), longLease());

        assertThat(store().awaitCompletion(newKey(), longest)).isEmpty();
        assertThat(store().awaitCompletion(completed, longest)).isPresent();
    }

    @Test
    void severalBadArguments_theFirstInParameterOrderDecidesTheException() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().claim(null, "", 0, null));
        assertThatIllegalArgumentException().isThrownBy(() -> store().claim("", null, V1, null));
        assertThatNullPointerException()
                .isThrownBy(() -> store().claim(key, null, 0, Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> store().claim(key, FP, 0, null));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, null, null, Duration.ZERO));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(key, ClaimToken.random(), null, Duration.ZERO));
        assertThatIllegalArgumentException().isThrownBy(() -> store().renew(" ", null, null));
        assertThat(store().find(key)).isEmpty();
    }

    // --- random arguments against the reference model (jqwik) --------------------------------

    /** The SPI methods the random calls exercise: all of them. */
    enum Op {
        CLAIM,
        COMPLETE,
        RELEASE,
        RENEW,
        AWAIT_COMPLETION,
        FIND,
        DELETE
    }

    /** How a random call's key is made from the try's keys. */
    enum KeyShape {
        /** One of the try's valid keys. */
        VALID,
        NULL,
        EMPTY,
        /** A valid key padded to one character past the maximum. */
        TOO_LONG,
        /** A valid key repeated to a megabyte. */
        HUGE,
        /** A valid key with one character appended that is not printable ASCII. */
        BAD_CHARACTER
    }

    /**
     * A random call's key: its shape, which of the try's keys it starts from, and (for {@link
     * KeyShape#BAD_CHARACTER}) the code point appended, a lone surrogate included.
     *
     * @param shape how the key is made
     * @param slot which of the try's keys, modulo their number
     * @param badCodePoint the code point appended to a {@link KeyShape#BAD_CHARACTER} key
     */
    record KeyArg(KeyShape shape, int slot, int badCodePoint) {
        @Override
        public String toString() {
            return switch (shape) {
                case VALID -> "key#" + slot;
                case BAD_CHARACTER -> "key#" + slot + "+U+" + Integer.toHexString(badCodePoint);
                default -> shape.name();
            };
        }
    }

    /** Which token a fenced call presents, resolved against the model when it runs. */
    enum TokenArg {
        /** The token of the record held under the key, whatever its state. */
        OWNER,
        /** A token issued earlier for the key, not the held record's. */
        STALE,
        /** The token of a record held under another key. */
        OTHER_KEY,
        NEVER_ISSUED,
        NULL
    }

    /** The timeout of a random wait. */
    enum TimeoutArg {
        NULL,
        NEGATIVE,
        ZERO,
        FIVE_MILLISECONDS,
        /**
         * {@code Duration}'s largest value; presented only when the model says the wait ends at
         * once (a wait on a live claim would block the try), and as zero otherwise.
         */
        LONGEST
    }

    /**
     * One random SPI call. Only the arguments of its method count; {@link #toString()} shows those.
     *
     * @param op the method
     * @param key the key
     * @param fingerprint the fingerprint, any text or {@code null}
     * @param version the fingerprint version, any int
     * @param ttl the lease or retention, any duration or {@code null}
     * @param token the token
     * @param result the result, or {@code null}
     * @param timeout the wait's timeout
     */
    record Call(
            Op op,
            KeyArg key,
            String fingerprint,
            int version,
            Duration ttl,
            TokenArg token,
            StoredResult result,
            TimeoutArg timeout) {
        @Override
        public String toString() {
            return switch (op) {
                case CLAIM ->
                        "claim("
                                + key
                                + ", "
                                + show(fingerprint)
                                + ", "
                                + version
                                + ", "
                                + ttl
                                + ")";
                case COMPLETE ->
                        "complete("
                                + key
                                + ", "
                                + token
                                + ", "
                                + showResult(result)
                                + ", "
                                + ttl
                                + ")";
                case RELEASE -> "release(" + key + ", " + token + ")";
                case RENEW -> "renew(" + key + ", " + token + ", " + ttl + ")";
                case AWAIT_COMPLETION -> "awaitCompletion(" + key + ", " + timeout + ")";
                case FIND -> "find(" + key + ")";
                case DELETE -> "delete(" + key + ")";
            };
        }

        private static String show(String text) {
            if (text == null) {
                return "null";
            }
            StringBuilder shown = new StringBuilder("\"");
            text.codePoints()
                    .limit(40)
                    .forEach(
                            cp -> {
                                if (cp >= 0x21 && cp <= 0x7E) {
                                    shown.appendCodePoint(cp);
                                } else {
                                    shown.append("\\u{")
                                            .append(Integer.toHexString(cp))
                                            .append('}');
                                }
                            });
            return shown.append(text.length() > 40 ? "…(" + text.length() + ")\"" : "\"")
                    .toString();
        }

        private static String showResult(StoredResult result) {
            if (result == null) {
                return "null";
            }
            StringBuilder shown = new StringBuilder("result(" + result.status() + ", [");
            for (StoredHeader header : result.headers()) {
                shown.append(show(header.name()))
                        .append(": ")
                        .append(show(header.value()))
                        .append(' ');
            }
            return shown.append("], ").append(result.bodyLength()).append(" bytes)").toString();
        }
    }

    /** Random sequences of random calls. */
    static final class RandomCalls implements ArbitrarySupplier<List<Call>> {
        @Override
        public Arbitrary<List<Call>> get() {
            return Combinators.combine(
                            Arbitraries.of(Op.class),
                            keyArgs(),
                            fingerprints(),
                            versions(),
                            ttls(),
                            Arbitraries.of(TokenArg.class),
                            results(),
                            Arbitraries.of(TimeoutArg.class))
                    .as(Call::new)
                    .list()
                    .ofMinSize(1)
                    .ofMaxSize(16);
        }

        private static Arbitrary<KeyArg> keyArgs() {
            Arbitrary<Integer> badCodePoints =
                    Arbitraries.frequencyOf(
                            Tuple.of(2, Arbitraries.integers().between(0, 0x20)),
                            Tuple.of(1, Arbitraries.just(0x7F)),
                            Tuple.of(2, Arbitraries.integers().between(0xD800, 0xDFFF)),
                            Tuple.of(3, Arbitraries.integers().between(0x80, 0x10FFFF)));
            Arbitrary<KeyShape> shapes =
                    Arbitraries.frequency(
                            Tuple.of(12, KeyShape.VALID),
                            Tuple.of(1, KeyShape.NULL),
                            Tuple.of(1, KeyShape.EMPTY),
                            Tuple.of(1, KeyShape.TOO_LONG),
                            Tuple.of(1, KeyShape.HUGE),
                            Tuple.of(2, KeyShape.BAD_CHARACTER));
            return Combinators.combine(
                            shapes, Arbitraries.integers().between(0, TRY_KEYS - 1), badCodePoints)
                    .as(KeyArg::new);
        }

        private static Arbitrary<String> fingerprints() {
            return Arbitraries.frequencyOf(
                    Tuple.of(6, Arbitraries.of("fp-a", "fp-b")),
                    Tuple.of(
                            3,
                            Arbitraries.strings()
                                    .withCharRange('!', '~')
                                    .ofMinLength(1)
                                    .ofMaxLength(MAX_FINGERPRINT)),
                    Tuple.of(3, Arbitraries.strings().all().ofMaxLength(64)),
                    Tuple.of(
                            1,
                            Arbitraries.strings()
                                    .withCharRange('!', '~')
                                    .ofMinLength(MAX_FINGERPRINT + 1)
                                    .ofMaxLength(4 * MAX_FINGERPRINT)),
                    Tuple.of(1, Arbitraries.just(null)));
        }

        private static Arbitrary<Integer> versions() {
            return Arbitraries.frequencyOf(
                    Tuple.of(8, Arbitraries.just(V1)),
                    Tuple.of(1, Arbitraries.of(0, -1, 2, 99, Integer.MIN_VALUE, Integer.MAX_VALUE)),
                    Tuple.of(1, Arbitraries.integers()));
        }

        private static Arbitrary<Duration> ttls() {
            long maxSeconds = io.idemkit.spi.StoreArguments.MAX_TTL.getSeconds();
            return Arbitraries.frequencyOf(
                    // Valid, and too long to run out during a try on any clock.
                    Tuple.of(
                            8,
                            Arbitraries.longs()
                                    .between(3_600, maxSeconds)
                                    .map(Duration::ofSeconds)),
                    Tuple.of(1, Arbitraries.just(io.idemkit.spi.StoreArguments.MAX_TTL)),
                    Tuple.of(1, Arbitraries.just(null)),
                    Tuple.of(1, Arbitraries.just(Duration.ZERO)),
                    Tuple.of(
                            1,
                            Arbitraries.longs()
                                    .between(Long.MIN_VALUE, -1)
                                    .map(Duration::ofSeconds)),
                    Tuple.of(1, Arbitraries.longs().between(1, 999_999).map(Duration::ofNanos)),
                    Tuple.of(
                            1,
                            Arbitraries.longs()
                                    .between(maxSeconds, Long.MAX_VALUE - 1)
                                    .map(seconds -> Duration.ofSeconds(seconds, 1))),
                    Tuple.of(1, Arbitraries.just(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))));
        }

        private static Arbitrary<StoredResult> results() {
            Arbitrary<String> texts =
                    Arbitraries.frequencyOf(
                            Tuple.of(
                                    4,
                                    Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(30)),
                            Tuple.of(1, Arbitraries.strings().all().ofMaxLength(12)));
            Arbitrary<StoredHeader> headers =
                    Combinators.combine(texts, texts).as(StoredHeader::new);
            Arbitrary<StoredResult> results =
                    Combinators.combine(
                                    Arbitraries.integers().between(100, 599),
                                    headers.list().ofMaxSize(3),
                                    Arbitraries.bytes().array(byte[].class).ofMaxSize(2048))
                            .as(StoredResult::new);
            return results.injectNull(0.1);
        }
    }

    private static final int TRY_KEYS = 3;
    private static final int MAX_FINGERPRINT = io.idemkit.spi.StoreArguments.MAX_FINGERPRINT_LENGTH;
    private static final Instant MODEL_START = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * Random arguments, valid and not, at every SPI method, in random sequences on three fresh keys
     * (two like idemkit's, one of punctuation): every call either throws the exception the input
     * rules name for its first bad argument and changes nothing, or does what {@link
     * StoreReferenceModel} allows; after every call, {@code find} on each key agrees with the
     * model, so no call can have written part of a record. No other exception is allowed.
     *
     * <p>Valid leases and retentions here are an hour or more, so nothing runs out during a try and
     * the model needs no clock. jqwik runs this, not JUnit Jupiter: a store built in a field
     * initializer is there; one built in {@code @BeforeEach} must also be built in jqwik's
     * {@code @BeforeProperty}.
     */
    @Property(tries = 100)
    void randomArguments_throwTheDocumentedExceptionOrDoWhatTheModelAllows(
            @ForAll(supplier = RandomCalls.class) List<Call> calls) throws Exception {
        IdempotencyStore store = store();
        List<String> keys =
                List.of(
                        newKey(),
                        newKey(),
                        newKey().substring(0, 16) + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
        StoreReferenceModel model = new StoreReferenceModel(MODEL_START);
        for (int step = 0; step < calls.size(); step++) {
            Call call = calls.get(step);
            String where = "step " + step + ", " + call;
            try {
                perform(store, model, keys, call, where);
            } catch (AssertionError e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(where + " threw " + e, e);
            }
            for (int slot = 0; slot < keys.size(); slot++) {
                String key = keys.get(slot);
                assertSameRecord(
                        where + ", then find(key#" + slot + ")", model.find(key), store.find(key));
            }
        }
    }

    private static void perform(
            IdempotencyStore store,
            StoreReferenceModel model,
            List<String> keys,
            Call call,
            String where)
            throws Exception {
        String base = keys.get(call.key().slot() % keys.size());
        String key = key(call.key(), base);
        ClaimToken token = token(call.token(), model, keys, base);
        Duration timeout = timeout(call.timeout(), model, key);
        List<Class<? extends Throwable>> problems =
                switch (call.op()) {
                    case CLAIM ->
                            problems(
                                    keyProblem(key),
                                    textProblem(call.fingerprint(), MAX_FINGERPRINT),
                                    call.version() < 1 ? IllegalArgumentException.class : null,
                                    ttlProblem(call.ttl()));
                    case COMPLETE ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null,
                                    resultProblem(call.result()),
                                    ttlProblem(call.ttl()));
                    case RELEASE ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null);
                    case RENEW ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null,
                                    ttlProblem(call.ttl()));
                    case AWAIT_COMPLETION ->
                            problems(
                                    keyProblem(key),
                                    timeout == null
                                            ? NullPointerException.class
                                            : timeout.isNegative()
                                                    ? IllegalArgumentException.class
                                                    : null);
                    case FIND, DELETE -> problems(keyProblem(key));
                };
        if (!problems.isEmpty()) {
            Class<? extends Throwable> expected = problems.get(0);
            Throwable thrown = catchThrowable(() -> invoke(store, call, key, token, timeout));
            assertThat(thrown)
                    .as("%s: the first bad argument calls for %s", where, expected.getSimpleName())
                    .isInstanceOf(expected);
            return; // the model is unchanged; the finds after the call check the store is too
        }
        switch (call.op()) {
            case CLAIM -> {
                ClaimStatus status = model.claimStatus(key);
                boolean recovers = model.claimRecovers(key);
                Optional<StoreReferenceModel.Entry> before = model.held(key);
                ClaimResult claim =
                        store.claim(key, call.fingerprint(), call.version(), call.ttl());
                assertThat(claim.status()).as(where).isEqualTo(status);
                if (status.won()) {
                    assertThat(claim.recoveredFromCorrupt())
                            .as(where + ": recovered")
                            .isEqualTo(recovers);
                    assertThat(model.everIssued(claim.token()))
                            .as(where + ": the token is new")
                            .isFalse();
                    IdempotencyRecord written =
                            model.won(
                                    key,
                                    call.fingerprint(),
                                    call.version(),
                                    claim.token(),
                                    call.ttl());
                    assertSameRecord(where, Optional.of(written), Optional.of(claim.record()));
                } else {
                    assertSameRecord(
                            where, before.map(e -> e.toRecord(key)), Optional.of(claim.record()));
                }
            }
            case COMPLETE ->
                    assertThat(store.complete(key, token, call.result(), call.ttl()))
                            .as(where)
                            .isEqualTo(model.complete(key, token, call.result(), call.ttl()));
            case RELEASE ->
                    assertThat(store.release(key, token))
                            .as(where)
                            .isEqualTo(model.release(key, token));
            case RENEW ->
                    assertThat(store.renew(key, token, call.ttl()))
                            .as(where)
                            .isEqualTo(model.renew(key, token, call.ttl()));
            case AWAIT_COMPLETION ->
                    assertSameRecord(
                            where, model.completedNow(key), store.awaitCompletion(key, timeout));
            case FIND -> assertSameRecord(where, model.find(key), store.find(key));
            case DELETE -> assertThat(store.delete(key)).as(where).isEqualTo(model.delete(key));
        }
    }

    private static Object invoke(
            IdempotencyStore store, Call call, String key, ClaimToken token, Duration timeout)
            throws Exception {
        return switch (call.op()) {
            case CLAIM -> store.claim(key, call.fingerprint(), call.version(), call.ttl());
            case COMPLETE -> store.complete(key, token, call.result(), call.ttl());
            case RELEASE -> store.release(key, token);
            case RENEW -> store.renew(key, token, call.ttl());
            case AWAIT_COMPLETION -> store.awaitCompletion(key, timeout);
            case FIND -> store.find(key);
            case DELETE -> store.delete(key);
        };
    }

    @SafeVarargs
    private static List<Class<? extends Throwable>> problems(
            Class<? extends Throwable>... inParameterOrder) {
        List<Class<? extends Throwable>> found = new ArrayList<>();
        for (Class<? extends Throwable> problem : inParameterOrder) {
            if (problem != null) {
                found.add(problem);
            }
        }
        return found;
    }

    private static String key(KeyArg arg, String base) {
        return switch (arg.shape()) {
            case VALID -> base;
            case NULL -> null;
            case EMPTY -> "";
            case TOO_LONG -> base + "a".repeat(Math.max(1, MAX_KEY - base.length() + 1));
            case HUGE -> base.repeat((1 << 20) / base.length());
            case BAD_CHARACTER ->
                    new StringBuilder(base).appendCodePoint(arg.badCodePoint()).toString();
        };
    }

    private static ClaimToken token(
            TokenArg arg, StoreReferenceModel model, List<String> keys, String base) {
        Optional<ClaimToken> held = model.held(base).map(StoreReferenceModel.Entry::token);
        Optional<ClaimToken> chosen =
                switch (arg) {
                    case NULL -> Optional.empty();
                    case OWNER -> held;
                    case STALE ->
                            model.issuedFor(base).stream()
                                    .filter(t -> held.map(h -> !h.equals(t)).orElse(true))
                                    .findFirst();
                    case OTHER_KEY ->
                            keys.stream()
                                    .filter(k -> !k.equals(base))
                                    .flatMap(
                                            k ->
                                                    model
                                                            .held(k)
                                                            .map(StoreReferenceModel.Entry::token)
                                                            .stream())
                                    .findFirst();
                    case NEVER_ISSUED -> Optional.of(ClaimToken.random());
                };
        return arg == TokenArg.NULL ? null : chosen.orElseGet(ClaimToken::random);
    }

    private static Duration timeout(TimeoutArg arg, StoreReferenceModel model, String key) {
        return switch (arg) {
            case NULL -> null;
            case NEGATIVE -> Duration.ofMillis(-1);
            case ZERO -> Duration.ZERO;
            case FIVE_MILLISECONDS -> Duration.ofMillis(5);
            case LONGEST -> {
                boolean wouldWait =
                        key != null
                                && model.held(key)
                                        .filter(StoreReferenceModel.Entry::readable)
                                        .filter(e -> e.state() == RecordState.CLAIMED)
                                        .isPresent();
                yield wouldWait ? Duration.ZERO : Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
            }
        };
    }

    private static Class<? extends Throwable> keyProblem(String key) {
        return textProblem(key, MAX_KEY);
    }

    /** The rule for keys and fingerprints: 1 to {@code max} printable ASCII characters. */
    private static Class<? extends Throwable> textProblem(String text, int max) {
        if (text == null) {
            return NullPointerException.class;
        }
        if (text.isEmpty()
                || text.length() > max
                || text.chars().anyMatch(c -> c < 0x21 || c > 0x7E)) {
            return IllegalArgumentException.class;
        }
        return null;
    }

    /** The rule for leases and retentions: 1 ms to 100 years. */
    private static Class<? extends Throwable> ttlProblem(Duration ttl) {
        if (ttl == null) {
            return NullPointerException.class;
        }
        if (ttl.compareTo(Duration.ofMillis(1)) < 0
                || ttl.compareTo(io.idemkit.spi.StoreArguments.MAX_TTL) > 0) {
            return IllegalArgumentException.class;
        }
        return null;
    }

    /** The rule for results: present, and headers of well-formed Unicode. */
    private static Class<? extends Throwable> resultProblem(StoredResult result) {
        if (result == null) {
            return NullPointerException.class;
        }
        for (StoredHeader header : result.headers()) {
            if (!wellFormed(header.name()) || !wellFormed(header.value())) {
                return IllegalArgumentException.class;
            }
        }
        return null;
    }

    private static boolean wellFormed(String text) {
        return text.codePoints()
                .noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE);
    }

    /**
     * The record fields a store must keep exactly; times are the store's own, so they are checked
     * only for order.
     */
    private static void assertSameRecord(
            String where,
            Optional<IdempotencyRecord> expected,
            Optional<IdempotencyRecord> actual) {
        assertThat(actual.isPresent())
                .as("%s: a record is there (expected %s)", where, expected.isPresent())
                .isEqualTo(expected.isPresent());
        if (expected.isEmpty()) {
            return;
        }
        IdempotencyRecord e = expected.get();
        IdempotencyRecord a = actual.get();
        assertThat(a.key()).as(where + ": key").isEqualTo(e.key());
        assertThat(a.state()).as(where + ": state").isEqualTo(e.state());
        assertThat(a.fingerprint()).as(where + ": fingerprint").isEqualTo(e.fingerprint());
        assertThat(a.fingerprintVersion())
                .as(where + ": fingerprint version")
                .isEqualTo(e.fingerprintVersion());
        assertThat(a.token()).as(where + ": token").isEqualTo(e.token());
        assertThat(a.result()).as(where + ": result").isEqualTo(e.result());
        assertThat(a.leaseUntil()).as(where + ": lease end").isAfterOrEqualTo(a.claimedAt());
        if (a.completedAt() != null) {
            assertThat(a.expiresAt()).as(where + ": expiry").isAfter(a.completedAt());
        }
    }
}
