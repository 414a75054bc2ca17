package io.idemkit.store.memory;

import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a store holds according to the rules of {@code IdempotencyStore}'s Javadoc and contract C2,
 * C3, written as plainly as possible so that it can be checked by reading. It knows nothing of any
 * store; {@link InMemoryStoreStateProperties} compares a real store against it.
 *
 * <p>It keeps every record a store physically holds, live or not: nothing here is ever purged, so a
 * record leaves only through release or delete, and a won claim overwrites what was there. Time
 * moves only through {@link #advance(Duration)}. Not thread-safe; one model per chain.
 */
final class StoreReferenceModel {

    /** One held record: a CLAIMED record has no completion, a COMPLETED one has all of it (C2). */
    record Entry(
            RecordState state,
            String fingerprint,
            ClaimToken token,
            Instant claimedAt,
            Instant leaseUntil,
            Instant completedAt,
            Instant expiresAt,
            StoredResult result) {

        /** Live while the lease (CLAIMED) or the retention (COMPLETED) has not run out. */
        boolean liveAt(Instant now) {
            return state == RecordState.CLAIMED
                    ? now.isBefore(leaseUntil)
                    : now.isBefore(expiresAt);
        }

        /** The record a store should return for this entry. */
        IdempotencyRecord toRecord(String key) {
            return new IdempotencyRecord(
                    key,
                    state,
                    fingerprint,
                    IdempotencyRecord.CURRENT_FINGERPRINT_VERSION,
                    token,
                    claimedAt,
                    leaseUntil,
                    completedAt,
                    expiresAt,
                    result);
        }
    }

    private Instant now;
    private final Map<String, Entry> held = new HashMap<>();
    private final Map<String, List<ClaimToken>> issuedByKey = new HashMap<>();
    private final Set<ClaimToken> issued = new HashSet<>();

    StoreReferenceModel(Instant start) {
        this.now = start;
    }

    Instant now() {
        return now;
    }

    void advance(Duration amount) {
        now = now.plus(amount);
    }

    /** The record held under {@code key}, live or not; empty after release or delete. */
    Optional<Entry> held(String key) {
        return Optional.ofNullable(held.get(key));
    }

    /** How many records are held, live or not. */
    int size() {
        return held.size();
    }

    /** Every token ever issued for {@code key}, oldest first. */
    List<ClaimToken> issuedFor(String key) {
        return List.copyOf(issuedByKey.getOrDefault(key, List.of()));
    }

    boolean everIssued(ClaimToken token) {
        return issued.contains(token);
    }

    /**
     * What a claim on {@code key} reports now: the live record stays (ALREADY_*); otherwise the
     * claim takes the key, as a reclaim when it takes over a claim whose lease ran out, and as NEW
     * when nothing was held or the held result had expired.
     */
    ClaimStatus claimStatus(String key) {
        Entry entry = held.get(key);
        if (entry == null) {
            return ClaimStatus.NEW;
        }
        if (entry.liveAt(now)) {
            return entry.state() == RecordState.CLAIMED
                    ? ClaimStatus.ALREADY_CLAIMED
                    : ClaimStatus.ALREADY_COMPLETED;
        }
        return entry.state() == RecordState.CLAIMED ? ClaimStatus.LEASE_RECLAIMED : ClaimStatus.NEW;
    }

    /**
     * Records a won claim with the token the store drew, and returns the record it must have
     * written: claimed now, leased for {@code leaseTtl} from now, no completion.
     */
    IdempotencyRecord won(String key, String fingerprint, ClaimToken token, Duration leaseTtl) {
        if (!claimStatus(key).won()) {
            throw new IllegalStateException("the model says this claim cannot be won");
        }
        Entry entry =
                new Entry(
                        RecordState.CLAIMED,
                        fingerprint,
                        token,
                        now,
                        now.plus(leaseTtl),
                        null,
                        null,
                        null);
        held.put(key, entry);
        issuedByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(token);
        issued.add(token);
        return entry.toRecord(key);
    }

    /**
     * Fencing (C2): complete, release and renew act only on a CLAIMED record with this token,
     * whether or not its lease has run out, as long as nobody took it over.
     */
    boolean ownedBy(String key, ClaimToken token) {
        Entry entry = held.get(key);
        return entry != null && entry.state() == RecordState.CLAIMED && entry.token().equals(token);
    }

    /**
     * Completes the owned claim, retained for {@code completedTtl} from now; or changes nothing.
     */
    boolean complete(String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        if (!ownedBy(key, token)) {
            return false;
        }
        Entry claimed = held.get(key);
        held.put(
                key,
                new Entry(
                        RecordState.COMPLETED,
                        claimed.fingerprint(),
                        claimed.token(),
                        claimed.claimedAt(),
                        claimed.leaseUntil(),
                        now,
                        now.plus(completedTtl),
                        result));
        return true;
    }

    /** Deletes the owned claim; or changes nothing. */
    boolean release(String key, ClaimToken token) {
        if (!ownedBy(key, token)) {
            return false;
        }
        held.remove(key);
        return true;
    }

    /** Moves the owned claim's lease to {@code leaseTtl} from now; or changes nothing. */
    boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        if (!ownedBy(key, token)) {
            return false;
        }
        Entry claimed = held.get(key);
        held.put(
                key,
                new Entry(
                        RecordState.CLAIMED,
                        claimed.fingerprint(),
                        claimed.token(),
                        claimed.claimedAt(),
                        now.plus(leaseTtl),
                        null,
                        null,
                        null));
        return true;
    }

    /** Erases whatever is held under {@code key}; true if something was. */
    boolean delete(String key) {
        return held.remove(key) != null;
    }

    /** A claim is found even after its lease ran out; an expired result is not. */
    Optional<IdempotencyRecord> find(String key) {
        Entry entry = held.get(key);
        if (entry == null || (entry.state() == RecordState.COMPLETED && !entry.liveAt(now))) {
            return Optional.empty();
        }
        return Optional.of(entry.toRecord(key));
    }

    /** What a wait with a zero timeout sees: a live completed record, or nothing. */
    Optional<IdempotencyRecord> completedNow(String key) {
        Entry entry = held.get(key);
        if (entry == null || entry.state() != RecordState.COMPLETED || !entry.liveAt(now)) {
            return Optional.empty();
        }
        return Optional.of(entry.toRecord(key));
    }
}
