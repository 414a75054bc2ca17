package io.idemkit.store.memory;

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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Keeps records in this JVM (contract C10): the zero-configuration default, for development and
 * tests. Records do not survive a restart and are not shared between instances, so it protects one
 * process only.
 *
 * <p>Every record has its own TTL. The store holds at most {@code maxSize} entries and an estimated
 * {@code maxBytes} (C10.1). When a new key finds no room, expired records are purged (at most once
 * a second), then completed records are evicted, least recently completed first, until it fits
 * (C10.2). A claim in progress is never evicted, since that would let a duplicate run; a new key is
 * refused, as a storage error, only when claims in progress and attempt counts alone fill the store
 * (C10.3). An evicted result is not replayed: a late retry of its key runs again, so evictions are
 * counted in {@link #health()} and warned about, at most once a minute (C10.4). Expired records are
 * treated as absent on every read, and removed by {@link #purgeExpired()}, which a daemon thread
 * runs periodically when a sweep interval is given.
 *
 * <p>All decisions use the injected {@link Clock}, so tests move time instead of sleeping. Waiters
 * in {@link #awaitCompletion} are woken at once by a completion, release or delete, and otherwise
 * re-check on a backed-off poll (which notices a lease running out). Thread-safe.
 */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

    /** The default capacity, in entries ({@code idemkit.memory.max-size}). */
    public static final int DEFAULT_MAX_SIZE = 10_000;

    /** The default byte budget, 64 MiB ({@code idemkit.memory.max-bytes}). */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    /** How long a claim whose lease ran out is kept, so that its takeover reads as a reclaim. */
    static final Duration EXPIRED_CLAIM_GRACE = Duration.ofSeconds(60);

    /**
     * The shortest time between two purges that a full store runs before it evicts: a purge reads
     * every record, and a flood of new keys must not make every claim pay for it.
     */
    static final Duration PRESSURE_PURGE_INTERVAL = Duration.ofSeconds(1);

    private final Clock clock;
    private final MemoryBudget budget;
    private final ConcurrentHashMap<String, IdempotencyRecord> records = new ConcurrentHashMap<>();
    private final CompletionPoll completions = new CompletionPoll();
    private final ConcurrentHashMap<String, AttemptCount> attempts = new ConcurrentHashMap<>();
    private final SharedHeaders sharedHeaders = new SharedHeaders();
    private final AtomicReference<Instant> lastPressurePurge = new AtomicReference<>();
    private final ScheduledExecutorService sweeper;

    /**
     * @param clock the store's clock
     * @param maxSize the most entries (records and attempt counts) held at once, positive
     * @param maxBytes the most bytes the entries are estimated to take, positive
     * @param sweepInterval how often a daemon thread purges expired records, or {@code null} for no
     *     background sweep (expiry is still enforced on every read)
     */
    public InMemoryIdempotencyStore(
            Clock clock, int maxSize, long maxBytes, Duration sweepInterval) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.budget = new MemoryBudget(maxSize, maxBytes, clock, records, completions::signal);
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
     * A store with the default byte budget.
     *
     * @param clock the store's clock
     * @param maxSize the most entries held at once, positive
     * @param sweepInterval how often a daemon thread purges expired records, or {@code null}
     */
    public InMemoryIdempotencyStore(Clock clock, int maxSize, Duration sweepInterval) {
        this(clock, maxSize, DEFAULT_MAX_BYTES, sweepInterval);
    }

    /**
     * A store with the default byte budget and without a background sweep.
     *
     * @param clock the store's clock
     * @param maxSize the most entries held at once, positive
     */
    public InMemoryIdempotencyStore(Clock clock, int maxSize) {
        this(clock, maxSize, DEFAULT_MAX_BYTES, null);
    }

    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.checkClaim(key, fingerprint, fingerprintVersion, leaseTtl);
        return withRoom(
                () -> tryClaim(key, fingerprint, fingerprintVersion, leaseTtl),
                "the operation was refused");
    }

    /**
     * Runs {@code attempt}, making room and trying again each time it finds the store full, until
     * it succeeds or nothing more can be freed (C10.2, C10.3).
     */
    private <T> T withRoom(Supplier<T> attempt, String refusal) {
        while (true) {
            try {
                return attempt.get();
            } catch (MemoryBudget.Full full) {
                if (!makeRoom()) {
                    throw budget.refused(refusal);
                }
            }
        }
    }

    private ClaimResult tryClaim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        // A live record answers without locking the key's bin: every duplicate of a hot key would
        // otherwise take turns in compute. Linearizable at the read: records are immutable, so
        // one that is live now was live when it was read.
        IdempotencyRecord current = records.get(key);
        if (current != null && current.isLiveAt(clock.instant())) {
            return liveAnswer(current);
        }
        ClaimResult[] result = new ClaimResult[1];
        records.compute(
                key,
                (k, existing) -> {
                    Instant now = clock.instant();
                    if (existing != null && existing.isLiveAt(now)) {
                        result[0] = liveAnswer(existing);
                        return existing;
                    }
                    IdempotencyRecord claimed =
                            IdempotencyRecord.claimed(
                                    k,
                                    fingerprint,
                                    fingerprintVersion,
                                    ClaimToken.random(),
                                    now,
                                    now.plus(leaseTtl));
                    if (existing == null) {
                        budget.reserve(MemoryBudget.footprint(claimed));
                    } else {
                        budget.resize(existing, claimed);
                    }
                    // Every record here was written by a claim, so every one is readable, of
                    // whatever fingerprint version (C3): a claim never recovers from corrupt.
                    boolean reclaim = existing != null && existing.state() == RecordState.CLAIMED;
                    result[0] =
                            ClaimResult.of(
                                    reclaim ? ClaimStatus.LEASE_RECLAIMED : ClaimStatus.NEW,
                                    claimed);
                    return claimed;
                });
        return result[0];
    }

    /**
     * Frees room for a new entry: expired records first (C10.2), unless a purge ran less than
     * {@link #PRESSURE_PURGE_INTERVAL} ago, then the least recently completed record.
     *
     * @return whether anything was freed; {@code false} when claims in progress and attempt counts
     *     alone fill the store (C10.3)
     */
    private boolean makeRoom() {
        Instant now = clock.instant();
        Instant last = lastPressurePurge.get();
        if ((last == null || !now.isBefore(last.plus(PRESSURE_PURGE_INTERVAL)))
                && lastPressurePurge.compareAndSet(last, now)
                && purgeExpired() > 0) {
            return true;
        }
        return budget.evictLeastRecentlyCompleted();
    }

    /** The answer to a claim of a key whose record is live: a duplicate, done or in flight. */
    private static ClaimResult liveAnswer(IdempotencyRecord live) {
        return ClaimResult.of(
                live.state() == RecordState.COMPLETED
                        ? ClaimStatus.ALREADY_COMPLETED
                        : ClaimStatus.ALREADY_CLAIMED,
                live);
    }

    /**
     * Stores the result even past the byte budget, since the operation has run; then evicts older
     * results, least recently completed first, until the store is within it again (C10.2).
     */
    @Override
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.checkComplete(key, token, result, completedTtl);
        StoredResult stored = sharedHeaders.share(result);
        boolean done =
                fenced(
                        key,
                        token,
                        true,
                        owned -> {
                            Instant now = clock.instant();
                            return owned.complete(now, now.plus(completedTtl), stored);
                        });
        while (budget.overBytes() && budget.evictLeastRecentlyCompleted()) {
            // Each pass evicts one record.
        }
        return done;
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.checkRelease(key, token);
        return fenced(key, token, true, owned -> null);
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.checkRenew(key, token, leaseTtl);
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
        IdempotencyRecord after =
                records.computeIfPresent(
                        key,
                        (k, existing) -> {
                            if (!ownedBy(existing, token)) {
                                return existing;
                            }
                            done[0] = true;
                            IdempotencyRecord changed = change.apply(existing);
                            if (changed == null) {
                                budget.left(existing);
                            } else {
                                budget.resize(existing, changed);
                            }
                            return changed;
                        });
        if (done[0] && after != null && after.state() == RecordState.COMPLETED) {
            budget.completed(after);
        }
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
        StoreArguments.checkAwaitCompletion(key, timeout);
        return completions.await(
                key,
                timeout,
                first ->
                        Optional.ofNullable(records.get(key))
                                .filter(record -> record.isLiveAt(clock.instant())));
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        IdempotencyRecord record = records.get(StoreArguments.requireKey(key));
        if (record == null
                || (record.state() == RecordState.COMPLETED && !record.isLiveAt(clock.instant()))) {
            return Optional.empty();
        }
        return Optional.of(record);
    }

    @Override
    public boolean delete(String key) {
        IdempotencyRecord removed = records.remove(StoreArguments.requireKey(key));
        if (removed == null) {
            return false;
        }
        budget.left(removed);
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
                budget.left(record);
                completions.signal(entry.getKey());
                removed++;
            }
        }
        for (var entry : attempts.entrySet()) {
            if (!entry.getValue().expiresAt().isAfter(now)
                    && attempts.remove(entry.getKey(), entry.getValue())) {
                budget.free(MemoryBudget.footprint(entry.getKey()));
                removed++;
            }
        }
        budget.trim();
        return removed;
    }

    /**
     * Counts in a map of its own; a new count takes room like a record, and an expired one starts
     * over at 1. A count is never evicted (the message surface would run a message more often than
     * {@code max-attempts}), but completed records are evicted to make room for it (C10.2).
     */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.checkCountAttempt(attemptsKey, retention);
        return withRoom(
                () -> tryCountAttempt(attemptsKey, retention), "the attempt was not counted");
    }

    private long tryCountAttempt(String attemptsKey, Duration retention) {
        Instant now = clock.instant();
        AttemptCount counted =
                attempts.compute(
                        attemptsKey,
                        (key, was) -> {
                            if (was == null) {
                                budget.reserve(MemoryBudget.footprint(key));
                            }
                            long before =
                                    was == null || !was.expiresAt().isAfter(now) ? 0 : was.count();
                            return new AttemptCount(before + 1, now.plus(retention));
                        });
        return counted.count();
    }

    /**
     * @return how many entries (records and attempt counts) the store holds, live or not yet purged
     */
    public int size() {
        return budget.size();
    }

    /**
     * @return the entries of the eviction order, including records that left the map: for tests
     */
    int evictionOrderLength() {
        return budget.queued();
    }

    /**
     * @return the estimated bytes of the entries the store holds (C10.1)
     */
    public long bytes() {
        return budget.bytes();
    }

    /**
     * Always up: a full store still answers every claim, evicting completed records or refusing a
     * new key, and taking every replica out of the load balancer because one of them is full would
     * turn a flood of new keys into an outage (C10.5). Reports {@code size}, {@code maxSize},
     * {@code bytes}, {@code maxBytes}, {@code evictions} (completed records evicted to make room)
     * and {@code refusals} (new keys refused because claims in progress filled the store), both
     * counted since the store was opened.
     */
    @Override
    public StoreHealth health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("size", (long) budget.size());
        details.put("maxSize", (long) budget.maxSize());
        details.put("bytes", budget.bytes());
        details.put("maxBytes", budget.maxBytes());
        details.put("evictions", budget.evictions());
        details.put("refusals", budget.refusals());
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

    /**
     * @return the most entries this store holds at once ({@code idemkit.memory.max-size})
     */
    public int maxSize() {
        return budget.maxSize();
    }

    /**
     * @return the most bytes this store's entries may take, estimated ({@code
     *     idemkit.memory.max-bytes})
     */
    public long maxBytes() {
        return budget.maxBytes();
    }

    private record AttemptCount(long count, Instant expiresAt) {}
}
