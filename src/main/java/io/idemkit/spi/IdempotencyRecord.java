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
 * <p><b>Building one.</b> A store builds its records with {@link #builder()}, which names every
 * part, or with {@link #claimed claimed(…)}, and derives one from another with {@link
 * #toBuilder()}, {@link #complete complete(…)} and {@link #withLeaseUntil withLeaseUntil(…)}. These
 * are the stable way: when the record gains a component, they keep compiling, and the new component
 * takes a documented default. The canonical constructor is public only because a record's canonical
 * constructor cannot be less visible than the record; it gains a parameter with every component the
 * record gains, so code that calls it breaks then. New code should not call it.
 *
 * <pre>{@code
 * IdempotencyRecord record = IdempotencyRecord.builder()
 *         .key(key)
 *         .state(RecordState.COMPLETED)
 *         .fingerprint(fingerprint)
 *         .fingerprintVersion(version)
 *         .token(token)
 *         .claimedAt(claimedAt)
 *         .leaseUntil(leaseUntil)
 *         .completedAt(completedAt)
 *         .expiresAt(expiresAt)
 *         .result(result)
 *         .build();
 * }</pre>
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
     * Validates that the components agree with the state. Not for new code: it gains a parameter
     * with every component the record gains; use {@link #builder()} (see the class comment).
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
        return builder()
                .key(key)
                .state(RecordState.CLAIMED)
                .fingerprint(fingerprint)
                .fingerprintVersion(fingerprintVersion)
                .token(token)
                .claimedAt(claimedAt)
                .leaseUntil(leaseUntil)
                .build();
    }

    /**
     * A builder with nothing set: set every part, then {@link Builder#build() build()}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this record's components, to build a changed copy of it.
     *
     * @return a new builder, every part set from this record
     */
    public Builder toBuilder() {
        return new Builder()
                .key(key)
                .state(state)
                .fingerprint(fingerprint)
                .fingerprintVersion(fingerprintVersion)
                .token(token)
                .claimedAt(claimedAt)
                .leaseUntil(leaseUntil)
                .completedAt(completedAt)
                .expiresAt(expiresAt)
                .result(result);
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
        return toBuilder()
                .state(RecordState.COMPLETED)
                .completedAt(Objects.requireNonNull(completedAt, "completedAt"))
                .expiresAt(Objects.requireNonNull(expiresAt, "expiresAt"))
                .result(Objects.requireNonNull(result, "result"))
                .build();
    }

    /**
     * This record with its lease moved.
     *
     * @param newLeaseUntil the new end of the lease
     * @return a copy of this record with {@code leaseUntil} replaced
     */
    public IdempotencyRecord withLeaseUntil(Instant newLeaseUntil) {
        return toBuilder()
                .leaseUntil(Objects.requireNonNull(newLeaseUntil, "newLeaseUntil"))
                .build();
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

    /**
     * Builds an {@link IdempotencyRecord} part by part, each part named; the stable way to build
     * one (see the class comment). {@link #build()} checks the parts as the record does: {@code
     * key}, {@code state}, {@code fingerprint}, {@code fingerprintVersion}, {@code token}, {@code
     * claimedAt} and {@code leaseUntil} are required, and {@code completedAt}, {@code expiresAt}
     * and {@code result} are set exactly when the state is {@link RecordState#COMPLETED COMPLETED}.
     * A component the record gains later is optional here, with a documented default. Not
     * thread-safe; a builder may build several records.
     */
    public static final class Builder {

        private String key;
        private RecordState state;
        private String fingerprint;
        private Integer fingerprintVersion;
        private ClaimToken token;
        private Instant claimedAt;
        private Instant leaseUntil;
        private Instant completedAt;
        private Instant expiresAt;
        private StoredResult result;

        private Builder() {}

        /**
         * @param key the effective key (lowercase hex SHA-256); required
         * @return this builder
         */
        public Builder key(String key) {
            this.key = key;
            return this;
        }

        /**
         * @param state the record's state; required
         * @return this builder
         */
        public Builder state(RecordState state) {
            this.state = state;
            return this;
        }

        /**
         * @param fingerprint the request fingerprint the claim was made with; required
         * @return this builder
         */
        public Builder fingerprint(String fingerprint) {
            this.fingerprint = fingerprint;
            return this;
        }

        /**
         * @param fingerprintVersion the fingerprint scheme version; required, with no default: a
         *     store gives the version it read, see {@link
         *     IdempotencyRecord#isReadableFingerprintVersion(int)}
         * @return this builder
         */
        public Builder fingerprintVersion(int fingerprintVersion) {
            this.fingerprintVersion = fingerprintVersion;
            return this;
        }

        /**
         * @param token the fencing token of the claim that wrote the record; required
         * @return this builder
         */
        public Builder token(ClaimToken token) {
            this.token = token;
            return this;
        }

        /**
         * @param claimedAt when the current claim was taken; required
         * @return this builder
         */
        public Builder claimedAt(Instant claimedAt) {
            this.claimedAt = claimedAt;
            return this;
        }

        /**
         * @param leaseUntil when the current claim's lease runs out; required
         * @return this builder
         */
        public Builder leaseUntil(Instant leaseUntil) {
            this.leaseUntil = leaseUntil;
            return this;
        }

        /**
         * @param completedAt when the operation completed; set exactly when {@code COMPLETED}
         * @return this builder
         */
        public Builder completedAt(Instant completedAt) {
            this.completedAt = completedAt;
            return this;
        }

        /**
         * @param expiresAt when the completed result stops being replayed; set exactly when {@code
         *     COMPLETED}
         * @return this builder
         */
        public Builder expiresAt(Instant expiresAt) {
            this.expiresAt = expiresAt;
            return this;
        }

        /**
         * @param result the stored result; set exactly when {@code COMPLETED}
         * @return this builder
         */
        public Builder result(StoredResult result) {
            this.result = result;
            return this;
        }

        /**
         * @return the record
         * @throws NullPointerException naming the first required part that is not set
         * @throws IllegalArgumentException if the completion parts do not agree with the state
         */
        public IdempotencyRecord build() {
            // In component order, so that the first part missing is the one named.
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(fingerprint, "fingerprint");
            Objects.requireNonNull(fingerprintVersion, "fingerprintVersion");
            return new IdempotencyRecord(
                    key,
                    state,
                    fingerprint,
                    fingerprintVersion,
                    token,
                    claimedAt,
                    leaseUntil,
                    completedAt,
                    expiresAt,
                    result);
        }
    }
}
