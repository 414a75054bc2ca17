package io.idemkit.store.memory;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoreArguments;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Keeps records in this JVM (contract C10): the zero-configuration default, for development and
 * tests. Records do not survive a restart and are not shared between instances, so it protects one
 * process only.
 *
 * <p>Every record has its own TTL; there is no LRU eviction, because evicting a claimed record
 * would let a duplicate run. Instead the store holds at most {@code maxSize} records, and a claim
 * of a new key beyond that is a storage error. Expired records are treated as absent on every read,
 * and removed by {@link #purgeExpired()}, which a daemon thread runs periodically when a sweep
 * interval is given.
 *
 * <p>All decisions use the injected {@link Clock}, so tests move time instead of sleeping. Waiters
 * in {@link #awaitCompletion} are woken at once by a completion, release or delete, and otherwise
 * re-check on a backed-off poll (which notices a lease running out). Thread-safe.
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

    /** The default capacity, in records. */
    public static final int DEFAULT_MAX_SIZE = 10_000;

    /** How long a claim whose lease ran out is kept, so that its takeover reads as a reclaim. */
    static final Duration EXPIRED_CLAIM_GRACE = Duration.ofSeconds(60);

    private final Clock clock;
    private final int maxSize;
    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    private final CompletionPoll completions = new CompletionPoll();
    private final ConcurrentHashMap<String, AttemptCount> attempts = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();
    private final ScheduledExecutorService sweeper;

    /**
     * @param clock the store's clock
     * @param maxSize the most records held at once, positive
     * @param sweepInterval how often a daemon thread purges expired records, or {@code null} for no
     *     background sweep (expiry is still enforced on every read)
     */
    public InMemoryIdempotencyStore(Clock clock, int maxSize, Duration sweepInterval) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (maxSize <= 0) {
            throw new IllegalArgumentException("maxSize must be positive, was " + maxSize);
        }
        this.maxSize = maxSize;
        if (sweepInterval == null) {
            this.sweeper = null;
        } else {
            if (sweepInterval.isNegative() || sweepInterval.isZero()) {
                throw new IllegalArgumentException("sweepInterval must be positive");
            }
            this.sweeper =
                    Executors.newSingleThreadScheduledExecutor(
                            runnable -> {
                                Thread thread = new Thread(runnable, "idemkit-memory-sweeper");
                                thread.setDaemon(true);
                                return thread;
                            });
            long every = sweepInterval.toNanos();
            sweeper.scheduleWithFixedDelay(this::purgeExpired, every, every, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * A store without a background sweep.
     *
     * @param clock the store's clock
     * @param maxSize the most records held at once, positive
     */
    public InMemoryIdempotencyStore(Clock clock, int maxSize) {
        this(clock, maxSize, null);
    }

    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireFingerprint(fingerprint);
        StoreArguments.requireFingerprintVersion(fingerprintVersion);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
        try {
            return tryClaim(key, fingerprint, fingerprintVersion, leaseTtl);
        } catch (Full full) {
            purgeExpired();
            try {
                return tryClaim(key, fingerprint, fingerprintVersion, leaseTtl);
            } catch (Full stillFull) {
                throw new IdempotencyStorageException(
                        IdempotencyStorageException.Kind.REFUSED,
                        "The in-memory idempotency store is full ("
                                + maxSize
                                + " records, idemkit.memory.max-size); the operation was"
                                + " refused. Raise the limit, shorten idemkit.completed-ttl, or"
                                + " use the MongoDB store.",
                        null);
            }
        }
    }

    private ClaimResult tryClaim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        // A live record answers without locking the key's bin: every duplicate of a hot key would
        // otherwise take turns in compute. Linearizable at the read: records are immutable, so
        // one that is live now was live when it was read.
        IdempotencyRecord current = records.get(key);
        if (isReadable(current) && current.isLiveAt(clock.instant())) {
            return liveAnswer(current);
        }
        ClaimResult[] result = new ClaimResult[1];
        records.compute(
                key,
                (k, existing) -> {
                    Instant now = clock.instant();
                    boolean readable = isReadable(existing);
                    if (readable && existing.isLiveAt(now)) {
                        result[0] = liveAnswer(existing);
                        return existing;
                    }
                    if (existing == null) {
                        reserveSlot();
                    }
                    IdempotencyRecord claimed =
                            IdempotencyRecord.claimed(
                                    k,
                                    fingerprint,
                                    fingerprintVersion,
                                    ClaimToken.random(),
                                    now,
                                    now.plus(leaseTtl));
                    boolean reclaim = readable && existing.state() == RecordState.CLAIMED;
                    result[0] =
                            new ClaimResult(
                                    reclaim ? ClaimStatus.LEASE_RECLAIMED : ClaimStatus.NEW,
                                    claimed,
                                    existing != null && !readable);
                    return claimed;
                });
        return result[0];
    }

    /** Whether a record is there and this code can read it (a known fingerprint version). */
    private static boolean isReadable(IdempotencyRecord record) {
        return record != null
                && IdempotencyRecord.isKnownFingerprintVersion(record.fingerprintVersion());
    }

    /** The answer to a claim of a key whose record is live: a duplicate, done or in flight. */
    private static ClaimResult liveAnswer(IdempotencyRecord live) {
        return ClaimResult.of(
                live.state() == RecordState.COMPLETED
                        ? ClaimStatus.ALREADY_COMPLETED
                        : ClaimStatus.ALREADY_CLAIMED,
                live);
    }

    private void reserveSlot() {
        int current;
        do {
            current = size.get();
            if (current >= maxSize) {
                throw new Full();
            }
        } while (!size.compareAndSet(current, current + 1));
    }

    @Override
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        StoreArguments.requireResult(result);
        StoreArguments.requireTtl(completedTtl, "completedTtl");
        return fenced(
                key,
                token,
                true,
                owned -> {
                    Instant now = clock.instant();
                    return owned.complete(now, now.plus(completedTtl), result);
                });
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        return fenced(key, token, true, owned -> null);
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
        return fenced(
                key, token, false, owned -> owned.withLeaseUntil(clock.instant().plus(leaseTtl)));
    }

    /**
     * Applies {@code change} to the record only while it is claimed with {@code token}; a change to
     * {@code null} deletes the record. Waiters are woken when {@code wakeWaiters} is set.
     */
    private boolean fenced(
            String key,
            ClaimToken token,
            boolean wakeWaiters,
            UnaryOperator<IdempotencyRecord> change) {
        boolean[] done = new boolean[1];
        records.computeIfPresent(
                key,
                (k, existing) -> {
                    if (!ownedBy(existing, token)) {
                        return existing;
                    }
                    done[0] = true;
                    IdempotencyRecord changed = change.apply(existing);
                    if (changed == null) {
                        size.decrementAndGet();
                    }
                    return changed;
                });
        if (done[0] && wakeWaiters) {
            completions.signal(key);
        }
        return done[0];
    }

    private static boolean ownedBy(IdempotencyRecord record, ClaimToken token) {
        return record.state() == RecordState.CLAIMED && record.token().equals(token);
    }

    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        StoreArguments.requireKey(key);
        StoreArguments.requireTimeout(timeout);
        return completions.await(
                key,
                timeout,
                first ->
                        Optional.ofNullable(readable(records.get(key)))
                                .filter(record -> record.isLiveAt(clock.instant())));
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        IdempotencyRecord record = readable(records.get(StoreArguments.requireKey(key)));
        if (record == null
                || (record.state() == RecordState.COMPLETED && !record.isLiveAt(clock.instant()))) {
            return Optional.empty();
        }
        return Optional.of(record);
    }

    private static IdempotencyRecord readable(IdempotencyRecord record) {
        return record != null
                        && IdempotencyRecord.isKnownFingerprintVersion(record.fingerprintVersion())
                ? record
                : null;
    }

    @Override
    public boolean delete(String key) {
        IdempotencyRecord removed = records.remove(StoreArguments.requireKey(key));
        if (removed == null) {
            return false;
        }
        size.decrementAndGet();
        completions.signal(key);
        return true;
    }

    /**
     * Removes completed records past their retention and claims whose lease ran out a minute ago or
     * longer. A record that changes meanwhile is left alone.
     *
     * @return how many records were removed
     */
    @Override
    public long purgeExpired() {
        Instant now = clock.instant();
        Instant claimsBefore = now.minus(EXPIRED_CLAIM_GRACE);
        long removed = 0;
        for (var entry : records.entrySet()) {
            IdempotencyRecord record = entry.getValue();
            boolean expired =
                    record.state() == RecordState.COMPLETED
                            ? !record.isLiveAt(now)
                            : !record.leaseUntil().isAfter(claimsBefore);
            if (expired && records.remove(entry.getKey(), record)) {
                size.decrementAndGet();
                completions.signal(entry.getKey());
                removed++;
            }
        }
        for (var entry : attempts.entrySet()) {
            if (!entry.getValue().expiresAt().isAfter(now)
                    && attempts.remove(entry.getKey(), entry.getValue())) {
                size.decrementAndGet();
                removed++;
            }
        }
        return removed;
    }

    /**
     * Counts in a map of its own; a new count takes room like a record, and an expired one starts
     * over at 1.
     */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.requireKey(attemptsKey);
        StoreArguments.requireTtl(retention, "retention");
        Instant now = clock.instant();
        AttemptCount counted =
                attempts.compute(
                        attemptsKey,
                        (key, was) -> {
                            if (was == null && size.incrementAndGet() > maxSize) {
                                size.decrementAndGet();
                                throw new IdempotencyStorageException(
                                        IdempotencyStorageException.Kind.REFUSED,
                                        "The in-memory idempotency store is full ("
                                                + maxSize
                                                + " records, idemkit.memory.max-size); the"
                                                + " attempt was not counted.",
                                        null);
                            }
                            long before =
                                    was == null || !was.expiresAt().isAfter(now) ? 0 : was.count();
                            return new AttemptCount(before + 1, now.plus(retention));
                        });
        return counted.count();
    }

    /**
     * @return how many records the store holds, live or not yet purged
     */
    public int size() {
        return size.get();
    }

    /**
     * Up while the store has room for a new key; down when it is full, since a new key is then
     * refused until records expire. Reports {@code size} and {@code maxSize}.
     */
    @Override
    public StoreHealth health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("size", (long) size.get());
        details.put("maxSize", (long) maxSize);
        if (size.get() >= maxSize) {
            return StoreHealth.down(
                    details,
                    "the in-memory store is full: new keys are refused until records expire."
                            + " Raise idemkit.memory.max-size, shorten idemkit.completed-ttl, or use"
                            + " the MongoDB store.");
        }
        return StoreHealth.up(details);
    }

    @Override
    public Instant now() {
        return clock.instant();
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public void close() {
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
    }

    /** Raised inside a map update when a new key would exceed the capacity. */
    private static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Full() {
            super(null, null, false, false);
        }
    }

    /**
     * @return the most records this store holds at once ({@code idemkit.memory.max-size})
     */
    public int maxSize() {
        return maxSize;
    }

    private record AttemptCount(long count, Instant expiresAt) {}
}
