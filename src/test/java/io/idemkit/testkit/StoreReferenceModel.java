package io.idemkit.testkit;

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
 * store: the in-memory store's state properties compare a store on a manual clock against it, step
 * by step, and {@link IdempotencyStoreContract}'s random-argument property compares every store
 * against it (with leases too long to run out during a try, so that a real clock cannot disagree).
 *
 * <p>A record claimed with a fingerprint version this library does not compute is held, read and
 * answered like any other (C3): no claim can write an unreadable record, so in the model no claim
 * ever recovers from corrupt.
 *
 * <p>It keeps every record a store physically holds, live or not: nothing here is ever purged, so a
 * record leaves only through release or delete, and a won claim overwrites what was there. Time
 * moves only through {@link #advance(Duration)}. Not thread-safe; one model per chain.
 */
public final class StoreReferenceModel {

    /**
     * One held record: a CLAIMED record has no completion, a COMPLETED one has all of it (C2).
     *
     * @param state the record's state
     * @param fingerprint the claim's fingerprint
     * @param fingerprintVersion the claim's fingerprint version, 1 or more
     * @param token the claim's token
     * @param claimedAt when it was claimed, on the model's clock
     * @param leaseUntil the lease end
     * @param completedAt when it completed, or {@code null}
     * @param expiresAt when the result expires, or {@code null}
     * @param result the result, or {@code null}
     */
    public record Entry(
            RecordState state,
            String fingerprint,
            int fingerprintVersion,
            ClaimToken token,
            Instant claimedAt,
            Instant leaseUntil,
            Instant completedAt,
            Instant expiresAt,
            StoredResult result) {

        /**
         * @param now the model's time
         * @return whether the lease (CLAIMED) or the retention (COMPLETED) has not run out
         */
        public boolean liveAt(Instant now) {
            return state == RecordState.CLAIMED
                    ? now.isBefore(leaseUntil)
                    : now.isBefore(expiresAt);
        }

        /**
         * @param key the entry's key
         * @return the record a store should return for this entry
         */
        public IdempotencyRecord toRecord(String key) {
            return IdempotencyRecord.builder()
                    .key(key)
                    .state(state)
                    .fingerprint(fingerprint)
                    .fingerprintVersion(fingerprintVersion)
                    .token(token)
                    .claimedAt(claimedAt)
                    .leaseUntil(leaseUntil)
                    .completedAt(completedAt)
                    .expiresAt(expiresAt)
                    .result(result)
                    .build();
        }
    }

    private Instant now;
    private final Map<String, Entry> held = new HashMap<>();
    private final Map<String, List<ClaimToken>> issuedByKey = new HashMap<>();
    private final Set<ClaimToken> issued = new HashSet<>();

    /**
     * @param start the model's initial time
     */
    public StoreReferenceModel(Instant start) {
        this.now = start;
    }

    /**
     * @return the model's time
     */
    public Instant now() {
        return now;
    }

    /**
     * @param amount how far the model's time moves
     */
    public void advance(Duration amount) {
        now = now.plus(amount);
    }

    /**
     * @param key a key
     * @return the record held under {@code key}, live or not; empty after release or delete
     */
    public Optional<Entry> held(String key) {
        return Optional.ofNullable(held.get(key));
    }

    /**
     * @return how many records are held, live or not
     */
    public int size() {
        return held.size();
    }

    /**
     * @param key a key
     * @return every token ever issued for {@code key}, oldest first
     */
    public List<ClaimToken> issuedFor(String key) {
        return List.copyOf(issuedByKey.getOrDefault(key, List.of()));
    }

    /**
     * @param token a token
     * @return whether any claim in the model drew it
     */
    public boolean everIssued(ClaimToken token) {
        return issued.contains(token);
    }

    /**
     * What a claim on {@code key} reports now: the live record stays (ALREADY_*), whatever its
     * fingerprint version; otherwise the claim takes the key, as a reclaim when it takes over a
     * claim whose lease ran out, and as NEW when nothing was held or the held result had expired.
     *
     * @param key a key
     * @return the status a claim must report now
     */
    public ClaimStatus claimStatus(String key) {
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
     * Records a won claim of the current fingerprint version.
     *
     * @param key the key
     * @param fingerprint the claim's fingerprint
     * @param token the token the store drew
     * @param leaseTtl the lease
     * @return the record the store must have written
     */
    public IdempotencyRecord won(
            String key, String fingerprint, ClaimToken token, Duration leaseTtl) {
        return won(
                key, fingerprint, IdempotencyRecord.CURRENT_FINGERPRINT_VERSION, token, leaseTtl);
    }

    /**
     * Records a won claim with the token the store drew, and returns the record it must have
     * written: claimed now, leased for {@code leaseTtl} from now, no completion.
     *
     * @param key the key
     * @param fingerprint the claim's fingerprint
     * @param fingerprintVersion the claim's fingerprint version, 1 or more
     * @param token the token the store drew
     * @param leaseTtl the lease
     * @return the record the store must have written
     */
    public IdempotencyRecord won(
            String key,
            String fingerprint,
            int fingerprintVersion,
            ClaimToken token,
            Duration leaseTtl) {
        if (!claimStatus(key).won()) {
            throw new IllegalStateException("the model says this claim cannot be won");
        }
        Entry entry =
                new Entry(
                        RecordState.CLAIMED,
                        fingerprint,
                        fingerprintVersion,
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
     *
     * @param key a key
     * @param token a token
     * @return whether a fenced call with {@code token} acts on the record of {@code key}
     */
    public boolean ownedBy(String key, ClaimToken token) {
        Entry entry = held.get(key);
        return entry != null && entry.state() == RecordState.CLAIMED && entry.token().equals(token);
    }

    /**
     * Completes the owned claim, retained for {@code completedTtl} from now; or changes nothing.
     *
     * @param key the key
     * @param token the caller's token
     * @param result the result
     * @param completedTtl the retention
     * @return whether the claim was owned and is now completed
     */
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        if (!ownedBy(key, token)) {
            return false;
        }
        Entry claimed = held.get(key);
        held.put(
                key,
                new Entry(
                        RecordState.COMPLETED,
                        claimed.fingerprint(),
                        claimed.fingerprintVersion(),
                        claimed.token(),
                        claimed.claimedAt(),
                        claimed.leaseUntil(),
                        now,
                        now.plus(completedTtl),
                        result));
        return true;
    }

    /**
     * Deletes the owned claim; or changes nothing.
     *
     * @param key the key
     * @param token the caller's token
     * @return whether the claim was owned and is now deleted
     */
    public boolean release(String key, ClaimToken token) {
        if (!ownedBy(key, token)) {
            return false;
        }
        held.remove(key);
        return true;
    }

    /**
     * Moves the owned claim's lease to {@code leaseTtl} from now; or changes nothing.
     *
     * @param key the key
     * @param token the caller's token
     * @param leaseTtl the new lease
     * @return whether the claim was owned and is now renewed
     */
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        if (!ownedBy(key, token)) {
            return false;
        }
        Entry claimed = held.get(key);
        held.put(
                key,
                new Entry(
                        RecordState.CLAIMED,
                        claimed.fingerprint(),
                        claimed.fingerprintVersion(),
                        claimed.token(),
                        claimed.claimedAt(),
                        now.plus(leaseTtl),
                        null,
                        null,
                        null));
        return true;
    }

    /**
     * Erases whatever is held under {@code key}.
     *
     * @param key the key
     * @return whether something was held
     */
    public boolean delete(String key) {
        return held.remove(key) != null;
    }

    /**
     * A claim is found even after its lease ran out; an expired result is not.
     *
     * @param key the key
     * @return what {@code find} must return
     */
    public Optional<IdempotencyRecord> find(String key) {
        Entry entry = held.get(key);
        if (entry == null || (entry.state() == RecordState.COMPLETED && !entry.liveAt(now))) {
            return Optional.empty();
        }
        return Optional.of(entry.toRecord(key));
    }

    /**
     * @param key the key
     * @return what a wait with a zero timeout sees: a live completed record, or nothing
     */
    public Optional<IdempotencyRecord> completedNow(String key) {
        Entry entry = held.get(key);
        if (entry == null || entry.state() != RecordState.COMPLETED || !entry.liveAt(now)) {
            return Optional.empty();
        }
        return Optional.of(entry.toRecord(key));
    }
}
