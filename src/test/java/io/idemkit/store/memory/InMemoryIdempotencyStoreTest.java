package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the in-memory store adds to the contract: capacity and purging (C10). */
class InMemoryIdempotencyStoreTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final StoredResult OK = new StoredResult(200, List.of(), new byte[0]);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void claimOfANewKeyBeyondMaxSize_isAStorageErrorAndEvictsNothing() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            store.claim("a", "fp", 1, LEASE);
            store.claim("b", "fp", 1, LEASE);

            assertThatThrownBy(() -> store.claim("c", "fp", 1, LEASE))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("full (2 records, idemkit.memory.max-size)")
                    .extracting(e -> ((IdempotencyStorageException) e).kind())
                    .isEqualTo(IdempotencyStorageException.Kind.REFUSED);

            assertThat(store.find("a")).isPresent();
            assertThat(store.find("b")).isPresent();
            assertThat(store.claim("a", "fp", 1, LEASE).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        }
    }

    @Test
    void fullStore_purgesExpiredRecordsBeforeRefusingAClaim() {
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2)) {
            store.complete(
                    "a", store.claim("a", "fp", 1, LEASE).token(), OK, Duration.ofMinutes(1));
            store.claim("b", "fp", 1, Duration.ofMinutes(10));
            clock.advance(Duration.ofMinutes(2));

            assertThat(store.claim("c", "fp", 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.size()).isEqualTo(2);
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
