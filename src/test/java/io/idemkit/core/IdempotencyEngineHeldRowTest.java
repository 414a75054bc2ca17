package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Duplicates of a claim whose lease lapsed while its holder still completes it inside a business
 * transaction (C13), as the JDBC store answers them: each claim waits out the store's row-lock
 * bound holding a pooled connection and answers "claimed", and each wait returns at once, since the
 * lease has lapsed. The duplicates must neither spin on the store nor take a connection each: they
 * back off, and claim again one at a time.
 */
class IdempotencyEngineHeldRowTest extends IdempotencyEngineFixture {

    private static final Duration LOCK_BOUND = Duration.ofMillis(100);
    private static final int DUPLICATES = 12;

    /** The row held by an open transaction, as the JDBC store's claim meets it. */
    private static final class HeldRowStore extends ForwardingStore {
        final AtomicInteger claims = new AtomicInteger();

        /** Claims again by a thread that claimed before: a waiter's, in a row-lock wait now. */
        final AtomicInteger againInLockWait = new AtomicInteger();

        final AtomicInteger mostAgainInLockWait = new AtomicInteger();
        private final Set<Thread> claimedBefore = ConcurrentHashMap.newKeySet();
        private final IdempotencyStore held;

        HeldRowStore(IdempotencyStore held) {
            super(held);
            this.held = held;
        }

        @Override
        public ClaimResult claim(String key, String fingerprint, int version, Duration leaseTtl) {
            IdempotencyRecord record = held.find(key).orElse(null);
            if (record == null) {
                return super.claim(key, fingerprint, version, leaseTtl);
            }
            claims.incrementAndGet();
            boolean again = !claimedBefore.add(Thread.currentThread());
            if (again) {
                mostAgainInLockWait.accumulateAndGet(againInLockWait.incrementAndGet(), Math::max);
            }
            try {
                Thread.sleep(LOCK_BOUND.toMillis()); // a pooled connection in a row-lock wait
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (again) {
                    againInLockWait.decrementAndGet();
                }
            }
            return ClaimResult.of(ClaimStatus.ALREADY_CLAIMED, record);
        }

        @Override
        public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout) {
            return Optional.empty(); // the lease lapsed: nothing to wait for
        }
    }

    @Test
    void duplicatesOfAHeldClaim_claimAgainOneAtATime_andBackOff() throws Exception {
        HeldRowStore heldRow = new HeldRowStore(store);
        IdempotencyEngine onHeldRow = engineOn(heldRow);
        onHeldRow.admit(op("fp")); // the holder, now inside its transaction
        Duration waitTimeout = Duration.ofSeconds(2);

        List<Future<Object>> duplicates = new ArrayList<>();
        for (int i = 0; i < DUPLICATES; i++) {
            duplicates.add(
                    pool.submit(
                            () -> {
                                try {
                                    return onHeldRow.admit(op("fp", withWait(waitTimeout)));
                                } catch (IdempotencyInProgressException e) {
                                    return e;
                                }
                            }));
        }
        for (Future<Object> duplicate : duplicates) {
            assertThat(duplicate.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(IdempotencyInProgressException.class);
        }

        // Each duplicate's first claim may meet the lock at once; every later one is gated.
        assertThat(heldRow.mostAgainInLockWait.get())
                .as("waiters' claims in a row-lock wait at once")
                .isEqualTo(1);
        int firstClaims = DUPLICATES;
        int gatedClaims = heldRow.claims.get() - firstClaims;
        // One at a time, each holding the lock bound: at most wait-timeout / bound of them. Without
        // the gate, each of the twelve claimed again every bound: about 12 x 20.
        assertThat(gatedClaims)
                .as("claims again after the first, by all the duplicates together")
                .isLessThanOrEqualTo((int) (waitTimeout.toMillis() / LOCK_BOUND.toMillis()) + 2);
    }

    @Test
    void aLoneDuplicateOfAHeldClaim_backsOff_ratherThanClaimingAgainAtOnce() throws Exception {
        HeldRowStore heldRow = new HeldRowStore(store);
        IdempotencyEngine onHeldRow = engineOn(heldRow);
        onHeldRow.admit(op("fp"));
        Duration waitTimeout = Duration.ofSeconds(2);

        Future<Object> duplicate =
                pool.submit(
                        () -> {
                            try {
                                return onHeldRow.admit(op("fp", withWait(waitTimeout)));
                            } catch (IdempotencyInProgressException e) {
                                return e;
                            }
                        });

        assertThat(duplicate.get(30, TimeUnit.SECONDS))
                .isInstanceOf(IdempotencyInProgressException.class);
        // Without a pause it claims again every lock bound: about 20 times in 2 s. The pauses
        // double from 10 ms to 500 ms, so lock wait and pause alternate about 8 times; a slow
        // machine only makes it fewer.
        assertThat(heldRow.claims.get()).isLessThanOrEqualTo(12);
    }
}
