package io.idemkit.admin;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Inspects and erases idempotency records, for support cases and right-to-erasure requests: look a
 * record up by the raw parts of its operation or by its effective key, delete one, purge expired
 * ones. Inject it wherever an operator's tool needs it:
 *
 * <pre>{@code
 * @Inject IdempotencyAdmin admin;
 *
 * admin.findHttp(key, "tenant-42", "POST", "/shop/api/orders")
 *      .ifPresent(r -> log(r.state(), r.status(), r.bodyBytes()));
 * }</pre>
 *
 * <p>What is shown: the state, the fingerprint, the timestamps (on the store's clock), the stored
 * status and the body's size. Never the claim token, and never the body unless it is asked for
 * ({@link #findWithBody}). A deleted record is gone at once: the next request with its key runs the
 * operation again.
 *
 * <p>The raw key given to a lookup is hashed at once, and is never stored or logged (C4.9). Every
 * method reaches the store, so any of them may throw {@link IdempotencyStorageException}.
 * Thread-safe; a {@code @Dependent} bean that holds nothing but the application's store.
 */
@Dependent
public class IdempotencyAdmin {

    /** The scope of single-tenant operation, for lookups of records made without a scope. */
    public static final String SINGLE_TENANT_SCOPE = ScopeResolver.SINGLE_TENANT_SCOPE;

    private static final Pattern EFFECTIVE_KEY = Pattern.compile("[0-9a-f]{64}");

    private final IdempotencyStore store;

    @Inject
    IdempotencyAdmin(IdempotencyStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * What the admin API shows of a record.
     *
     * @param effectiveKey the record's effective key (64 lowercase hex characters)
     * @param state {@code CLAIMED} (an operation is running, or died and its lease has not run out)
     *     or {@code COMPLETED}
     * @param fingerprint the fingerprint of the request that claimed it
     * @param fingerprintVersion the fingerprint scheme version
     * @param claimedAt when the claim was taken
     * @param leaseUntil when the claim's lease runs out (for a completed record, as the store keeps
     *     it)
     * @param completedAt when the operation completed; {@code null} while claimed
     * @param expiresAt when the stored result stops being replayed; {@code null} while claimed
     * @param status the stored status; {@code null} while claimed
     * @param bodyBytes the stored body's length in bytes; {@code 0} while claimed
     * @param body the stored body; {@code null} unless asked for, and while claimed
     */
    public record RecordInfo(
            String effectiveKey,
            RecordState state,
            String fingerprint,
            int fingerprintVersion,
            Instant claimedAt,
            Instant leaseUntil,
            Instant completedAt,
            Instant expiresAt,
            Integer status,
            int bodyBytes,
            byte[] body) {

        /**
         * Copies the body.
         *
         * @param effectiveKey the record's effective key
         * @param state the record's state
         * @param fingerprint the fingerprint of the request that claimed it
         * @param fingerprintVersion the fingerprint scheme version
         * @param claimedAt when the claim was taken
         * @param leaseUntil when the claim's lease runs out
         * @param completedAt when the operation completed; {@code null} while claimed
         * @param expiresAt when the stored result stops being replayed; {@code null} while claimed
         * @param status the stored status; {@code null} while claimed
         * @param bodyBytes the stored body's length in bytes
         * @param body the stored body; {@code null} unless asked for
         */
        public RecordInfo {
            Objects.requireNonNull(effectiveKey, "effectiveKey");
            Objects.requireNonNull(state, "state");
            body = body == null ? null : body.clone();
        }

        /**
         * @return a copy of the body, or {@code null} when it was not asked for
         */
        @Override
        public byte[] body() {
            return body == null ? null : body.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof RecordInfo that
                    && effectiveKey.equals(that.effectiveKey)
                    && state == that.state
                    && Objects.equals(fingerprint, that.fingerprint)
                    && fingerprintVersion == that.fingerprintVersion
                    && Objects.equals(claimedAt, that.claimedAt)
                    && Objects.equals(leaseUntil, that.leaseUntil)
                    && Objects.equals(completedAt, that.completedAt)
                    && Objects.equals(expiresAt, that.expiresAt)
                    && Objects.equals(status, that.status)
                    && bodyBytes == that.bodyBytes
                    && Arrays.equals(body, that.body);
        }

        @Override
        public int hashCode() {
            return Objects.hash(effectiveKey, state, completedAt, status, bodyBytes);
        }

        @Override
        public String toString() {
            // Bodies never reach logs.
            return "RecordInfo[effectiveKey="
                    + effectiveKey
                    + ", state="
                    + state
                    + ", status="
                    + status
                    + ", bodyBytes="
                    + bodyBytes
                    + "]";
        }

        static RecordInfo of(IdempotencyRecord record, boolean withBody) {
            StoredResult result = record.result();
            return new RecordInfo(
                    record.key(),
                    record.state(),
                    record.fingerprint(),
                    record.fingerprintVersion(),
                    record.claimedAt(),
                    record.leaseUntil(),
                    record.completedAt(),
                    record.expiresAt(),
                    result == null ? null : result.status(),
                    result == null ? 0 : result.bodyLength(),
                    withBody && result != null ? result.body() : null);
        }
    }

    /**
     * The effective key of an HTTP request (contract C1), as the filter pair computes it.
     *
     * @param key the client's {@code Idempotency-Key}, unquoted
     * @param scope the caller's scope: the principal's name, your {@code
     *     IdempotencyScopeProvider}'s value, or {@link #SINGLE_TENANT_SCOPE}
     * @param method the HTTP method, in any case
     * @param path the request path as the client sent it, context root included, without the query
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException if a part holds a lone surrogate or the method is not a
     *     token
     */
    public String httpEffectiveKey(String key, String scope, String method, String path) {
        return EffectiveKey.forHttp(key, scope, method, path);
    }

    /**
     * The effective key of a method call (contract C1): key, scope, bean class, method signature.
     *
     * @param key the explicit or derived key
     * @param scope the caller's scope, or {@link #SINGLE_TENANT_SCOPE}
     * @param beanClass the bean class name, as the method surface records it
     * @param methodSignature the method signature, as the method surface records it
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException if a part holds a lone surrogate
     */
    public String methodEffectiveKey(
            String key, String scope, String beanClass, String methodSignature) {
        return EffectiveKey.forMethod(key, scope, beanClass, methodSignature);
    }

    /**
     * @param effectiveKey a record's effective key
     * @return the record, without its body; empty when there is none, or it expired or is
     *     unreadable. A record of another fingerprint version than this library's is shown like any
     *     other (contract C3)
     * @throws IllegalArgumentException if {@code effectiveKey} is not 64 lowercase hex characters
     */
    public Optional<RecordInfo> find(String effectiveKey) {
        return store.find(checked(effectiveKey)).map(r -> RecordInfo.of(r, false));
    }

    /**
     * As {@link #find}, with the stored body. The body is the response as the first caller received
     * it: it may hold personal data.
     *
     * @param effectiveKey a record's effective key
     * @return the record, with its body when completed
     * @throws IllegalArgumentException if {@code effectiveKey} is not 64 lowercase hex characters
     */
    public Optional<RecordInfo> findWithBody(String effectiveKey) {
        return store.find(checked(effectiveKey)).map(r -> RecordInfo.of(r, true));
    }

    /**
     * The record of an HTTP request, by its raw parts; see {@link #httpEffectiveKey}.
     *
     * @param key the client's idempotency key
     * @param scope the caller's scope
     * @param method the HTTP method
     * @param path the request path as sent, context root included
     * @return the record, without its body
     */
    public Optional<RecordInfo> findHttp(String key, String scope, String method, String path) {
        return find(httpEffectiveKey(key, scope, method, path));
    }

    /**
     * Erases one record whatever its state: the next operation with its key runs again. Erasing a
     * record whose operation is still running lets a duplicate run beside it; for a
     * right-to-erasure request on a completed record, that is what is wanted.
     *
     * @param effectiveKey a record's effective key
     * @return whether a record was deleted
     * @throws IllegalArgumentException if {@code effectiveKey} is not 64 lowercase hex characters
     */
    public boolean delete(String effectiveKey) {
        return store.delete(checked(effectiveKey));
    }

    /**
     * Deletes every expired record now, where the store supports it: the MongoDB store (what its
     * TTL index would delete, for deployments where TTL deletion lags or is off) and the in-memory
     * store. Never deletes a live record.
     *
     * @return how many records were deleted
     * @throws UnsupportedOperationException for a store that cannot purge on demand
     */
    public long purgeExpired() {
        return store.purgeExpired();
    }

    /**
     * @return the store's name: {@code memory}, {@code mongodb}, {@code jdbc}, or a custom store's
     */
    public String storeName() {
        return store.name();
    }

    private static String checked(String effectiveKey) {
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        if (!EFFECTIVE_KEY.matcher(effectiveKey).matches()) {
            throw new IllegalArgumentException(
                    "An effective key is 64 lowercase hex characters (a SHA-256); this is not"
                            + " one.");
        }
        return effectiveKey;
    }
}
