package io.idemkit.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The one stored record of an effective key (contract C2). There is never a separate claim record
 * and result record.
 *
 * <p>A {@link RecordState#CLAIMED CLAIMED} record has no completion: {@code completedAt}, {@code
 * expiresAt} and {@code result} are {@code null}. A {@link RecordState#COMPLETED COMPLETED} record
 * has all three; it is kept until {@code expiresAt}, which is counted from {@code completedAt} and
 * never extended by a read. All instants are on the store's clock.
 *
 * @param key the effective key (lowercase hex SHA-256)
 * @param state the record's state
 * @param fingerprint the request fingerprint the claim was made with
 * @param fingerprintVersion the fingerprint scheme version, 1 or more, see {@link
 *     #isReadableFingerprintVersion(int)}
 * @param token the fencing token of the claim that wrote this record
 * @param claimedAt when the current claim was taken
 * @param leaseUntil when the current claim's lease runs out
 * @param completedAt when the operation completed, or {@code null} while claimed
 * @param expiresAt when the completed result stops being replayed, or {@code null} while claimed
 * @param result the stored result, or {@code null} while claimed
 */
public record IdempotencyRecord(
        String key,
        RecordState state,
        String fingerprint,
        int fingerprintVersion,
        ClaimToken token,
        Instant claimedAt,
        Instant leaseUntil,
        Instant completedAt,
        Instant expiresAt,
        StoredResult result) {

    /** The fingerprint scheme this library computes (contract C1). */
    public static final int CURRENT_FINGERPRINT_VERSION = 1;

    /**
     * Validates that the components agree with the state.
     *
     * @param key the effective key (lowercase hex SHA-256)
     * @param state the record's state
     * @param fingerprint the request fingerprint the claim was made with
     * @param fingerprintVersion the fingerprint scheme version, 1 or more, see {@link
     *     #isReadableFingerprintVersion(int)}
     * @param token the fencing token of the claim that wrote this record
     * @param claimedAt when the current claim was taken
     * @param leaseUntil when the current claim's lease runs out
     * @param completedAt when the operation completed, or {@code null} while claimed
     * @param expiresAt when the completed result stops being replayed, or {@code null} while
     *     claimed
     * @param result the stored result, or {@code null} while claimed
     */
    public IdempotencyRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(claimedAt, "claimedAt");
        Objects.requireNonNull(leaseUntil, "leaseUntil");
        boolean completed = state == RecordState.COMPLETED;
        if (completed != (completedAt != null)
                || completed != (expiresAt != null)
                || completed != (result != null)) {
            throw new IllegalArgumentException(
                    "completedAt, expiresAt and result must be set exactly when the record is"
                            + " COMPLETED");
        }
    }

    /**
     * A freshly claimed record.
     *
     * @param key the effective key
     * @param fingerprint the request fingerprint
     * @param fingerprintVersion the fingerprint scheme version
     * @param token the new claim's token
     * @param claimedAt the claim time on the store's clock
     * @param leaseUntil the end of the lease on the store's clock
     * @return a {@link RecordState#CLAIMED CLAIMED} record
     */
    public static IdempotencyRecord claimed(
            String key,
            String fingerprint,
            int fingerprintVersion,
            ClaimToken token,
            Instant claimedAt,
            Instant leaseUntil) {
        return new IdempotencyRecord(
                key,
                RecordState.CLAIMED,
                fingerprint,
                fingerprintVersion,
                token,
                claimedAt,
                leaseUntil,
                null,
                null,
                null);
    }

    /**
     * This record, completed.
     *
     * @param completedAt the completion time on the store's clock
     * @param expiresAt the end of retention on the store's clock
     * @param result the result to keep
     * @return a {@link RecordState#COMPLETED COMPLETED} copy of this record
     */
    public IdempotencyRecord complete(Instant completedAt, Instant expiresAt, StoredResult result) {
        return new IdempotencyRecord(
                key,
                RecordState.COMPLETED,
                fingerprint,
                fingerprintVersion,
                token,
                claimedAt,
                leaseUntil,
                Objects.requireNonNull(completedAt, "completedAt"),
                Objects.requireNonNull(expiresAt, "expiresAt"),
                Objects.requireNonNull(result, "result"));
    }

    /**
     * This record with its lease moved.
     *
     * @param newLeaseUntil the new end of the lease
     * @return a copy of this record with {@code leaseUntil} replaced
     */
    public IdempotencyRecord withLeaseUntil(Instant newLeaseUntil) {
        return new IdempotencyRecord(
                key,
                state,
                fingerprint,
                fingerprintVersion,
                token,
                claimedAt,
                Objects.requireNonNull(newLeaseUntil, "newLeaseUntil"),
                completedAt,
                expiresAt,
                result);
    }

    /**
     * @return the stored result, empty while claimed
     */
    public Optional<StoredResult> storedResult() {
        return Optional.ofNullable(result);
    }

    /**
     * Whether the record still holds its key at {@code now}: a claim whose lease has not run out,
     * or a completed result that has not expired. A record that is not live may be claimed again.
     *
     * @param now the current time on the store's clock
     * @return whether the record is live
     */
    public boolean isLiveAt(Instant now) {
        return state == RecordState.COMPLETED ? now.isBefore(expiresAt) : now.isBefore(leaseUntil);
    }

    /**
     * Whether a stored fingerprint version leaves the record readable (contract C3): every version
     * from {@value StoreArguments#MIN_FINGERPRINT_VERSION} up, whether or not this library computes
     * it. A record of another version than {@link #CURRENT_FINGERPRINT_VERSION} is what a node of
     * another release writes into a shared store during a rolling upgrade; a store returns it like
     * any other record and never overwrites it while it is live, and the engine answers it as a
     * payload mismatch (C4.2). Only a version below {@value StoreArguments#MIN_FINGERPRINT_VERSION}
     * makes a record unreadable, that is absent.
     *
     * @param version a stored fingerprint version
     * @return whether a record holding it can be read
     */
    public static boolean isReadableFingerprintVersion(int version) {
        return version >= StoreArguments.MIN_FINGERPRINT_VERSION;
    }
}
