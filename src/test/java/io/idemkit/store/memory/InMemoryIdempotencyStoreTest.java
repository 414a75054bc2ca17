package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.CapturedLog;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the in-memory store adds to the contract: its limits, eviction and purging (C10). */
class InMemoryIdempotencyStoreTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration DAY = Duration.ofHours(24);
    private static final StoredResult OK = new StoredResult(200, List.of(), new byte[0]);
    private static final StoredResult KILOBYTE = new StoredResult(200, List.of(), new byte[1000]);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private static void completed(InMemoryIdempotencyStore store, String key, StoredResult result) {
        ClaimToken token = store.claim(key, "fp", 1, LEASE).token();
        assertThat(store.complete(key, token, result, DAY)).isTrue();
    }

    /** C10.3 */
    @Test
    void newKey_whenClaimsInProgressFillTheStore_isRefusedAndEvictsNothing() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            store.claim("a", "fp", 1, LEASE);
            store.claim("b", "fp", 1, LEASE);

            assertThatThrownBy(() -> store.claim("c", "fp", 1, LEASE))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining(
                            "full of operations in progress (2 entries, idemkit.memory.max-size")
                    .extracting(e -> ((IdempotencyStorageException) e).kind())
                    .isEqualTo(IdempotencyStorageException.Kind.REFUSED);

            assertThat(store.find("a")).isPresent();
            assertThat(store.find("b")).isPresent();
            assertThat(store.claim("a", "fp", 1, LEASE).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        }
    }

    /** C10.2 */
    @Test
    void fullStore_purgesExpiredRecordsBeforeEvictingAny() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            store.complete(
                    "a", store.claim("a", "fp", 1, LEASE).token(), OK, Duration.ofMinutes(1));
            completed(store, "b", OK);
            clock.advance(Duration.ofMinutes(2));

            assertThat(store.claim("c", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.size()).isEqualTo(2);
            assertThat(store.find("b")).isPresent();
            assertThat(store.health().details()).containsEntry("evictions", 0L);
        }
    }

    /** C10.2 */
    @Test
    void fullOfResults_evictsTheLeastRecentlyCompleted_toClaimANewKey() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 3)) {
            ClaimToken a = store.claim("a", "fp", 1, LEASE).token();
            ClaimToken b = store.claim("b", "fp", 1, LEASE).token();
            ClaimToken c = store.claim("c", "fp", 1, LEASE).token();
            // Claimed a, b, c; completed c, a, b: the order of completion decides.
            store.complete("c", c, OK, DAY);
            clock.advance(Duration.ofSeconds(1));
            store.complete("a", a, OK, DAY);
            clock.advance(Duration.ofSeconds(1));
            store.complete("b", b, OK, DAY);

            assertThat(store.claim("d", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);

            assertThat(store.find("c")).isEmpty();
            assertThat(store.find("a")).isPresent();
            assertThat(store.find("b")).isPresent();
            assertThat(store.size()).isEqualTo(3);
            // The evicted key is free again: a late retry runs its operation again (C10.4).
            assertThat(store.claim("c", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.find("a")).isEmpty();
            assertThat(store.health().details()).containsEntry("evictions", 2L);
        }
    }

    /** C10.2 */
    @Test
    void eviction_neverTakesAClaimInProgress_evenTheOldest() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            ClaimToken first = store.claim("first", "fp", 1, Duration.ofHours(1)).token();
            clock.advance(Duration.ofMinutes(1));
            completed(store, "done", OK);

            assertThat(store.claim("new", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThatThrownBy(() -> store.claim("another", "fp", 1, LEASE))
                    .isInstanceOf(IdempotencyStorageException.class);

            assertThat(store.find("done")).isEmpty();
            assertThat(store.find("first").orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
            assertThat(store.complete("first", first, OK, DAY)).isTrue();
        }
    }

    /** C10.1 */
    @Test
    void byteBudget_evictsResultsByTheirBytes_beforeTheCountIsReached() {
        long result = MemoryBudget.ENTRY_OVERHEAD_BYTES + 1 + 2 + 1000;
        long claim = MemoryBudget.ENTRY_OVERHEAD_BYTES + 1 + 2;
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, 100, 2 * result + claim - 1, null)) {
            completed(store, "a", KILOBYTE);
            clock.advance(Duration.ofSeconds(1));
            completed(store, "b", KILOBYTE);
            assertThat(store.bytes()).isEqualTo(2 * result);

            assertThat(store.claim("c", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);

            assertThat(store.find("a")).isEmpty();
            assertThat(store.find("b")).isPresent();
            assertThat(store.bytes()).isEqualTo(result + claim);
            assertThat(store.size()).isEqualTo(2);
        }
    }

    /** C10.2 */
    @Test
    void completionPastTheByteBudget_isStored_andOlderResultsMakeRoom() {
        long result = MemoryBudget.ENTRY_OVERHEAD_BYTES + 1 + 2 + 1000;
        long claim = MemoryBudget.ENTRY_OVERHEAD_BYTES + 1 + 2;
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, 100, 2 * result + claim - 1, null)) {
            completed(store, "a", KILOBYTE);
            ClaimToken b = store.claim("b", "fp", 1, LEASE).token();
            ClaimToken c = store.claim("c", "fp", 1, LEASE).token();
            clock.advance(Duration.ofSeconds(1));

            assertThat(store.complete("b", b, KILOBYTE, DAY)).isTrue();

            assertThat(store.find("a")).isEmpty();
            assertThat(store.find("b").orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
            assertThat(store.find("c").orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
            assertThat(store.bytes()).isEqualTo(result + claim);
            assertThat(store.complete("c", c, OK, DAY)).isTrue();
        }
    }

    /** C10.4 */
    @Test
    void evictions_areWarnedAtMostOnceAMinute_withoutAKey() {
        try (CapturedLog log = CapturedLog.of(InMemoryIdempotencyStore.class);
                InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1)) {
            for (int i = 0; i < 5; i++) {
                completed(store, "key-" + i, OK);
            }
            assertThat(log.warnings()).hasSize(1);
            clock.advance(MemoryBudget.EVICTION_WARNING_INTERVAL);
            completed(store, "key-5", OK);

            assertThat(log.warnings()).hasSize(2);
            assertThat(log.warnings().get(1))
                    .contains("evicts completed records")
                    .contains("(5 so far)")
                    .contains("a retry of an evicted key runs its operation again")
                    .doesNotContain("key-");
            assertThat(store.health().details()).containsEntry("evictions", 5L);
        }
    }

    /** C10.5 */
    @Test
    void fullStore_staysUp_andReportsWhatItHolds() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1, 4096, null)) {
            store.claim("a", "fp", 1, LEASE);
            assertThatThrownBy(() -> store.claim("b", "fp", 1, LEASE))
                    .isInstanceOf(IdempotencyStorageException.class);

            StoreHealth health = store.health();

            assertThat(health.up()).isTrue();
            assertThat(health.details())
                    .containsEntry("size", 1L)
                    .containsEntry("maxSize", 1L)
                    .containsEntry("bytes", MemoryBudget.ENTRY_OVERHEAD_BYTES + 1 + 2)
                    .containsEntry("maxBytes", 4096L)
                    .containsEntry("evictions", 0L)
                    .containsEntry("refusals", 1L);
        }
    }

    /** C10.2 */
    @Test
    void attemptCounts_evictResultsForRoom_butAreNeverEvicted() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            completed(store, "a", OK);
            assertThat(store.countAttempt("x", DAY)).isEqualTo(1);
            assertThat(store.countAttempt("y", DAY)).isEqualTo(1);

            assertThat(store.find("a")).isEmpty();
            assertThatThrownBy(() -> store.countAttempt("z", DAY))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("the attempt was not counted");
            assertThat(store.countAttempt("x", DAY)).isEqualTo(2);
        }
    }

    @Test
    void purgeExpired_removesExpiredResultsAndLongLapsedClaimsOnly() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 10)) {
            store.complete("done", store.claim("done", "fp", 1, LEASE).token(), OK, LEASE);
            store.claim("lapsed", "fp", 1, LEASE);
            clock.advance(LEASE.plusSeconds(1));
            store.claim("live", "fp", 1, LEASE);

            // The lapsed claim stays for the grace period, so its takeover reads as a reclaim.
            assertThat(store.purgeExpired()).isEqualTo(1);
            assertThat(store.find("lapsed")).isPresent();

            clock.advance(InMemoryIdempotencyStore.EXPIRED_CLAIM_GRACE);
            assertThat(store.purgeExpired()).isEqualTo(1);
            assertThat(store.find("lapsed")).isEmpty();
            assertThat(store.size()).isEqualTo(1);
            assertThat(store.bytes()).isEqualTo(MemoryBudget.ENTRY_OVERHEAD_BYTES + 4 + 2);
        }
    }

    /** C10.2: what left the store is skipped, and the eviction order does not keep it. */
    @Test
    void evictionOrder_skipsAndForgetsRecordsThatLeftTheStore() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 3)) {
            completed(store, "a", OK);
            completed(store, "b", OK);
            completed(store, "c", OK);
            assertThat(store.delete("a")).isTrue();
            completed(store, "d", OK);

            // "a" left first; the least recently completed still held is "b".
            assertThat(store.claim("e", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.find("b")).isEmpty();
            assertThat(store.find("c")).isPresent();
            assertThat(store.find("d")).isPresent();
        }
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 10)) {
            for (int i = 0; i < 20 * MemoryBudget.STALE_SLACK; i++) {
                completed(store, "k" + i, OK);
                assertThat(store.delete("k" + i)).isTrue();
            }
            assertThat(store.evictionOrderLength())
                    .isLessThanOrEqualTo(MemoryBudget.STALE_SLACK + 2);
        }
    }

    /** The sweeper's purge also drops the purged records from the head of the eviction order. */
    @Test
    void purgeExpired_dropsThePurgedFromTheEvictionOrder() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1000)) {
            for (int i = 0; i < 500; i++) {
                store.complete(
                        "old" + i, store.claim("old" + i, "fp", 1, LEASE).token(), OK, LEASE);
            }
            clock.advance(LEASE.plusSeconds(1));
            completed(store, "kept", OK);

            assertThat(store.purgeExpired()).isEqualTo(500);

            assertThat(store.evictionOrderLength()).isEqualTo(1);
            assertThat(store.size()).isEqualTo(1);
        }
    }

    @Test
    void sweepInterval_purgesInTheBackground() {
        try (InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, 10, Duration.ofMillis(20))) {
            store.complete("done", store.claim("done", "fp", 1, LEASE).token(), OK, LEASE);
            clock.advance(LEASE.plusSeconds(1));

            await().atMost(Duration.ofSeconds(10)).until(() -> store.size() == 0);
        }
    }
}
