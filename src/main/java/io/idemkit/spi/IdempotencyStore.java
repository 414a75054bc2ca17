package io.idemkit.spi;

import io.idemkit.IdempotencyStorageException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Where idempotency records live (contract C3). One record per effective key; every operation below
 * is a single atomic, conditional step on that record.
 *
 * <h2>Rules every store must keep</h2>
 *
 * <ul>
 *   <li><b>Atomic claim.</b> {@link #claim} is one atomic operation. Reading the record and then
 *       writing it is forbidden: two racing callers must never both win.
 *   <li><b>Fencing.</b> {@link #complete}, {@link #release} and {@link #renew} change the record
 *       only while it is {@link RecordState#CLAIMED CLAIMED} with the given token. After a lease
 *       was taken over, the old owner's calls all return {@code false}.
 *   <li><b>The store's clock.</b> Every lease and expiry decision uses the store's clock, never the
 *       application server's. A skewed JVM clock must not cause a wrongful takeover.
 *   <li><b>Expiry on read.</b> A record whose lease or retention has run out is treated as
 *       claimable by every operation, whether or not it has been deleted yet.
 *   <li><b>Corrupt is absent.</b> A record the store cannot read (a bad type, a missing field, an
 *       unknown fingerprint version) is treated as absent: {@link #claim} overwrites it and reports
 *       {@link ClaimResult#recoveredFromCorrupt()}; {@link #find} returns empty.
 *   <li><b>One failure type.</b> Every failure of the backend surfaces as {@link
 *       IdempotencyStorageException} carrying the backend's message, never a raw driver exception.
 *   <li><b>Lazy connections.</b> Constructing a store does not connect; the first operation does.
 * </ul>
 *
 * <p>Implementations are thread-safe: one instance serves every request of an application.
 */
public interface IdempotencyStore extends AutoCloseable {

    /**
     * Atomically claims {@code key}: takes it when it is absent, expired or unreadable, and
     * otherwise reports the live record untouched.
     *
     * @param key the effective key
     * @param fingerprint the request fingerprint to record with a new claim
     * @param fingerprintVersion the fingerprint scheme version
     * @param leaseTtl how long a new claim holds the key, positive
     * @return what the claim found and did; a won claim carries a new random token
     * @throws IdempotencyStorageException if the store fails
     */
    ClaimResult claim(String key, String fingerprint, int fingerprintVersion, Duration leaseTtl);

    /**
     * Moves the claim to {@link RecordState#COMPLETED COMPLETED} with {@code result}, kept for
     * {@code completedTtl} from now, provided the record is still claimed with {@code token}.
     *
     * @param key the effective key
     * @param token the caller's claim token
     * @param result the result to keep
     * @param completedTtl how long the result is replayed, positive
     * @return {@code true} if stored; {@code false} if the claim was lost (the record is gone,
     *     completed, or taken over with another token)
     * @throws IdempotencyStorageException if the store fails, or refuses a result too large for it
     */
    boolean complete(String key, ClaimToken token, StoredResult result, Duration completedTtl);

    /**
     * Deletes the claim, provided the record is still claimed with {@code token}, so that the next
     * caller can run the operation at once.
     *
     * @param key the effective key
     * @param token the caller's claim token
     * @return {@code true} if released; {@code false} if the claim was already lost
     * @throws IdempotencyStorageException if the store fails
     */
    boolean release(String key, ClaimToken token);

    /**
     * Moves the lease of a claim to {@code leaseTtl} from now, provided the record is still claimed
     * with {@code token}. A lease that ran out but was not taken over can still be renewed.
     *
     * @param key the effective key
     * @param token the caller's claim token
     * @param leaseTtl the new lease length, positive
     * @return {@code true} if renewed; {@code false} if the claim was lost
     * @throws IdempotencyStorageException if the store fails
     */
    boolean renew(String key, ClaimToken token, Duration leaseTtl);

    /**
     * Waits until the record of {@code key} is completed. Completion in the same JVM wakes the
     * waiter at once where the store can arrange it; otherwise the store polls on a bounded,
     * backed-off schedule. The wait subscribes before it reads, so a completion between the two is
     * never missed.
     *
     * @param key the effective key
     * @param timeout the longest time to wait, not negative
     * @return the completed record; empty on timeout, when the record vanished (released or
     *     deleted), or when its lease ran out before it completed
     * @throws InterruptedException if the waiting thread is interrupted
     * @throws IdempotencyStorageException if the store fails
     */
    Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException;

    /**
     * Reads the record of {@code key}, for inspection and tests.
     *
     * @param key the effective key
     * @return the record; empty if it is absent, unreadable, or completed and expired. A claim
     *     whose lease ran out is still returned until it is taken over or purged.
     * @throws IdempotencyStorageException if the store fails
     */
    Optional<IdempotencyRecord> find(String key);

    /**
     * Erases the record of {@code key} whatever its state: the administrative delete behind a
     * right-to-erasure request. Not for normal flow, which uses {@link #release}.
     *
     * @param key the effective key
     * @return whether a record was deleted
     * @throws IdempotencyStorageException if the store fails
     */
    boolean delete(String key);

    /**
     * The store's current time: the clock its lease and expiry decisions use. Used only to report
     * how long a lease has left, never to decide.
     *
     * @return the store's current time, estimated where the store cannot be asked cheaply
     * @throws IdempotencyStorageException if the store fails
     */
    Instant now();

    /**
     * @return a short, stable name for events and logs, such as {@code memory} or {@code mongodb}
     */
    String name();

    /** Releases the store's resources (connections, threads). Idempotent. */
    @Override
    default void close() {}
}
