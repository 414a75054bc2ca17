package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Leases, fencing and retention on the store's clock (C2, C3): an expired lease is reclaimed with a
 * new token, after which the old owner's complete, release and renew all fail; a live lease is not
 * reclaimed; a crash after the claim is recovered by the next caller; an expired lease nobody took
 * over can still be completed; renew extends a lease and only for its owner; a completed record's
 * TTL counts from completion and no read extends it (C2). And the claim's atomicity (C2, "one
 * atomic store operation"): sixteen threads racing on five hundred keys get exactly one winner per
 * key.
 */
abstract class LeaseAndFencingContract extends ClaimCompleteReleaseContract {

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
                                        ClaimResult claim = claimThroughContention(key);
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
            RacingThreads.awaitAll(runs);
        } finally {
            pool.shutdownNow();
        }

        assertThat(winners).hasSize(keys);
        assertThat(winners.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(losers.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(threads - 1));
    }

    /**
     * A claim, asked again while the store answers {@code CONTENDED}, as the engine does (C4.6): a
     * store may report contention rather than wait without bound on a lock, and the answer that
     * follows is the one that counts.
     */
    private ClaimResult claimThroughContention(String key) {
        for (int attempt = 1; ; attempt++) {
            try {
                return store().claim(key, FP, V1, longLease());
            } catch (IdempotencyStorageException e) {
                if (e.kind() != IdempotencyStorageException.Kind.CONTENDED || attempt == 20) {
                    throw e;
                }
            }
        }
    }
}
