package io.idemkit.spi;

import io.idemkit.IdempotencyStorageException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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
 *   <li><b>Another fingerprint version is a record like any other.</b> A well-formed record of any
 *       fingerprint version from 1 up is readable ({@link
 *       IdempotencyRecord#isReadableFingerprintVersion(int)}), whatever version the caller claims
 *       with: {@link #claim} answers with it while it is live ({@link ClaimStatus#ALREADY_CLAIMED
 *       ALREADY_CLAIMED}, {@link ClaimStatus#ALREADY_COMPLETED ALREADY_COMPLETED}), takes over a
 *       claim of it whose lease ran out ({@link ClaimStatus#LEASE_RECLAIMED LEASE_RECLAIMED}) and
 *       treats an expired result of it as absent; {@link #find} and {@link #awaitCompletion} return
 *       it. During a rolling upgrade nodes of two releases share the store, and overwriting a newer
 *       node's live record would run its operation twice; the engine answers such a record as a
 *       payload mismatch.
 *   <li><b>Corrupt is absent.</b> A record the store cannot read (a bad type, a missing field, a
 *       fingerprint version below 1 or not an integer) is treated as absent: {@link #claim}
 *       overwrites it and reports {@link ClaimResult#recoveredFromCorrupt()}; {@link #find} returns
 *       empty.
 *   <li><b>One failure type.</b> Every failure of the backend surfaces as {@link
 *       IdempotencyStorageException} carrying the backend's message, never a raw driver exception,
 *       and the {@link IdempotencyStorageException.Kind} of the failure when it is known (the
 *       {@code storage_error} event reports it).
 *   <li><b>Lazy connections.</b> Constructing a store does not connect; the first operation does.
 * </ul>
 *
 * <h2>Input rules</h2>
 *
 * Every method checks its arguments before it touches the backend, so that <b>nothing is written
 * when one of the exceptions below is thrown</b> (a claim is not taken, a record is not changed, a
 * held claim stays held). {@link StoreArguments} holds the checks, and the store contract suite
 * holds every store to them. One rule per argument:
 *
 * <table>
 *   <caption>What each argument may be, and what a store throws otherwise</caption>
 *   <tr><th>Argument (methods)</th><th>Refused</th><th>Exception</th></tr>
 *   <tr><td>{@code key} (all)</td><td>{@code null}</td><td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>empty; longer than {@value StoreArguments#MAX_KEY_LENGTH} characters; any
 *       character outside printable ASCII {@code U+0021..U+007E} (space, control, non-ASCII, lone
 *       surrogate), which some backends cannot hold or would re-encode into another key</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>{@code fingerprint} ({@link #claim})</td><td>{@code null}</td>
 *       <td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>empty; longer than {@value StoreArguments#MAX_FINGERPRINT_LENGTH}
 *       characters; outside printable ASCII</td><td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>{@code fingerprintVersion} ({@link #claim})</td><td>below 1</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td></td><td>not refused: a version of 1 or more that this library does not compute is
 *       written as asked and read back as it is (what a node of another release claims with)</td>
 *       <td>none</td></tr>
 *   <tr><td>{@code token} ({@link #complete}, {@link #release}, {@link #renew})</td>
 *       <td>{@code null}</td><td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>not refused: a token of another key, or of an earlier claim, is fencing's
 *       normal case: the call returns {@code false} and changes nothing</td><td>none</td></tr>
 *   <tr><td>{@code leaseTtl} ({@link #claim}, {@link #renew}), {@code completedTtl} ({@link
 *       #complete})</td><td>{@code null}</td><td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>zero; negative; below {@link StoreArguments#MIN_TTL 1 ms}; above {@link
 *       StoreArguments#MAX_TTL 100 years}. Every store represents the whole range; it may round
 *       down to the millisecond</td><td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>{@code timeout} ({@link #awaitCompletion})</td><td>{@code null}</td>
 *       <td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>negative. Zero looks once without waiting; any positive duration, up to
 *       {@link Duration}'s maximum, is valid (a store may stop waiting after about 292 years)</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>{@code result} ({@link #complete})</td><td>{@code null}</td>
 *       <td>{@link NullPointerException}</td></tr>
 *   <tr><td></td><td>a header name or value with a lone surrogate</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td></td><td>larger than the store can hold (only the store can judge: MongoDB's limit is
 *       16 MiB a document; the in-memory store has none). The claim stays held</td>
 *       <td>{@link IdempotencyStorageException}</td></tr>
 * </table>
 *
 * Arguments are checked in the order of the method's parameters; when several are bad, the first
 * decides the exception.
 *
 * <p>Implementations are thread-safe: one instance serves every request of an application.
 */
public interface IdempotencyStore extends AutoCloseable {

    /**
     * Atomically claims {@code key}: takes it when it is absent, expired or unreadable, and
     * otherwise reports the live record untouched, whatever its fingerprint version.
     *
     * @param key the effective key, see the input rules
     * @param fingerprint the request fingerprint to record with a new claim, see the input rules
     * @param fingerprintVersion the fingerprint scheme version, 1 or more
     * @param leaseTtl how long a new claim holds the key, 1 ms to 100 years
     * @return what the claim found and did; a won claim carries a new random token
     * @throws NullPointerException if an argument is {@code null}; nothing is written
     * @throws IllegalArgumentException if an argument breaks its input rule; nothing is written
     * @throws IdempotencyStorageException if the store fails
     */
    ClaimResult claim(String key, String fingerprint, int fingerprintVersion, Duration leaseTtl);

    /**
     * Moves the claim to {@link RecordState#COMPLETED COMPLETED} with {@code result}, kept for
     * {@code completedTtl} from now, provided the record is still claimed with {@code token}.
     *
     * @param key the effective key, see the input rules
     * @param token the caller's claim token
     * @param result the result to keep
     * @param completedTtl how long the result is replayed, 1 ms to 100 years
     * @return {@code true} if stored; {@code false} if the claim was lost (the record is gone,
     *     completed, or taken over with another token)
     * @throws NullPointerException if an argument is {@code null}; nothing is written
     * @throws IllegalArgumentException if an argument breaks its input rule; nothing is written
     * @throws IdempotencyStorageException if the store fails, or refuses a result too large for it
     *     (then nothing is written and the claim stays held)
     */
    boolean complete(String key, ClaimToken token, StoredResult result, Duration completedTtl);

    /**
     * Deletes the claim, provided the record is still claimed with {@code token}, so that the next
     * caller can run the operation at once.
     *
     * @param key the effective key, see the input rules
     * @param token the caller's claim token
     * @return {@code true} if released; {@code false} if the claim was already lost
     * @throws NullPointerException if an argument is {@code null}; nothing is written
     * @throws IllegalArgumentException if {@code key} breaks its input rule; nothing is written
     * @throws IdempotencyStorageException if the store fails
     */
    boolean release(String key, ClaimToken token);

    /**
     * Moves the lease of a claim to {@code leaseTtl} from now, provided the record is still claimed
     * with {@code token}. A lease that ran out but was not taken over can still be renewed.
     *
     * @param key the effective key, see the input rules
     * @param token the caller's claim token
     * @param leaseTtl the new lease length, 1 ms to 100 years
     * @return {@code true} if renewed; {@code false} if the claim was lost
     * @throws NullPointerException if an argument is {@code null}; nothing is written
     * @throws IllegalArgumentException if an argument breaks its input rule; nothing is written
     * @throws IdempotencyStorageException if the store fails
     */
    boolean renew(String key, ClaimToken token, Duration leaseTtl);

    /**
     * Waits until the record of {@code key} is completed. Completion in the same JVM wakes the
     * waiter at once where the store can arrange it; otherwise the store polls on a bounded,
     * backed-off schedule. The wait subscribes before it reads, so a completion between the two is
     * never missed.
     *
     * @param key the effective key, see the input rules
     * @param timeout the longest time to wait: zero (look once) or positive, any length
     * @return the completed record; empty on timeout, when the record vanished (released or
     *     deleted), or when its lease ran out before it completed
     * @throws InterruptedException if the waiting thread is interrupted
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if {@code key} breaks its input rule or {@code timeout} is
     *     negative
     * @throws IdempotencyStorageException if the store fails
     */
    Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException;

    /**
     * Reads the record of {@code key}, for inspection and tests.
     *
     * @param key the effective key, see the input rules
     * @return the record; empty if it is absent, unreadable, or completed and expired. A claim
     *     whose lease ran out is still returned until it is taken over or purged.
     * @throws NullPointerException if {@code key} is {@code null}
     * @throws IllegalArgumentException if {@code key} breaks its input rule
     * @throws IdempotencyStorageException if the store fails
     */
    Optional<IdempotencyRecord> find(String key);

    /**
     * Erases the record of {@code key} whatever its state: the administrative delete behind a
     * right-to-erasure request. Not for normal flow, which uses {@link #release}.
     *
     * @param key the effective key, see the input rules
     * @return whether a record was deleted
     * @throws NullPointerException if {@code key} is {@code null}; nothing is deleted
     * @throws IllegalArgumentException if {@code key} breaks its input rule; nothing is deleted
     * @throws IdempotencyStorageException if the store fails
     */
    boolean delete(String key);

    /**
     * Checks that the store can serve claims now, for the readiness check ({@code idemkit-store},
     * C8). The check runs it on a health endpoint's thread, so it should take one round trip at
     * most. The default reads a key no operation uses; a store overrides it to report more, or to
     * report a store that answers but cannot take new claims.
     *
     * @return whether the store can serve claims, with what it measured
     * @throws IdempotencyStorageException if the store cannot be reached (reported as down, with
     *     the exception's kind; its message, which may name hosts or users, is logged at {@code
     *     DEBUG} only)
     */
    default StoreHealth health() {
        find(StoreArguments.UNUSED_KEY);
        return StoreHealth.up(Map.of());
    }

    /**
     * Deletes every expired record now: completed records past their retention and claims whose
     * lease ran out. Never deletes a live record (a completed record within its retention, or a
     * claim whose lease still holds). For deployments where the store's own expiry lags or is off;
     * the operator calls it through the admin API.
     *
     * @return how many records were deleted
     * @throws UnsupportedOperationException if the store cannot purge on demand (the default)
     * @throws IdempotencyStorageException if the store fails
     */
    default long purgeExpired() {
        throw new UnsupportedOperationException(
                "The " + name() + " store cannot purge expired records on demand.");
    }

    /**
     * Counts one more attempt at an operation and returns the count, this attempt included (C11.3).
     * The count lives under a key of its own, apart from any record: it survives the release of a
     * claim (which deletes the record) and a crash of the caller, and it expires {@code retention}
     * after its last change, on the store's clock. Atomic: two racing callers get two different
     * counts. The message surface counts every run of a message-driven bean this way, so that a
     * message that always fails stops being run after {@code max-attempts}, even when the broker's
     * own delivery count starts over after a restart.
     *
     * @param attemptsKey the key of the count, under the same rules as a record's key; the caller
     *     derives it so that it never equals an effective key
     * @param retention how long the count is kept after this change, positive
     * @return the count, 1 for the first attempt
     * @throws UnsupportedOperationException if the store cannot count (the default); the message
     *     surface then uses the broker's delivery count alone
     * @throws IdempotencyStorageException if the store fails
     */
    default long countAttempt(String attemptsKey, Duration retention) {
        throw new UnsupportedOperationException("The " + name() + " store cannot count attempts.");
    }

    /**
     * Completes a claim inside the caller's active JTA transaction (C13): the same token-fenced
     * change as {@link #complete}, made on a connection the transaction enlists, so that the record
     * turns {@code COMPLETED} when the business writes commit and stays {@code CLAIMED} when they
     * roll back. Only a store whose records live in the business database can do it; the method
     * surface calls it for methods that opt in, from inside their transaction, and never commits.
     *
     * @param key the effective key
     * @param token the claim's token
     * @param result what to store, already redacted
     * @param completedTtl how long the completed record is kept, positive
     * @return {@code true} when the change is made within the transaction; {@code false} when the
     *     claim is no longer held with {@code token} (taken over, or gone): the caller must then
     *     roll the transaction back
     * @throws UnsupportedOperationException if the store cannot (the default)
     * @throws IdempotencyStorageException if the store fails
     */
    default boolean completeInTransaction(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        throw new UnsupportedOperationException(
                "The " + name() + " store cannot complete a record inside a JTA transaction.");
    }

    /**
     * Tells the store that the transaction in which {@link #completeInTransaction} completed the
     * record of {@code key} has committed (C13), so that it wakes the duplicates waiting for that
     * record, as {@link #complete} does. The store cannot wake them from inside the transaction,
     * whose outcome it does not know there, and must not make the transaction do more than the
     * completion: PostgreSQL, for one, refuses to prepare a transaction that sent a notification,
     * which would fail every two-phase commit. Called once, after the commit, on the thread that
     * ends the transaction; never after a rollback.
     *
     * <p>Best effort: it must not throw, and should return soon (a bounded statement at most); a
     * waiter it fails to wake finds the record at its next poll. The default does nothing, for
     * stores that cannot complete inside a transaction.
     *
     * @param key the effective key
     */
    default void completionCommitted(String key) {}

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
