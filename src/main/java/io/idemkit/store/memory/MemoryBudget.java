package io.idemkit.store.memory;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * What the in-memory store holds against its two limits, a count of entries and an estimate of
 * their bytes (C10.1), and its evictions: least recently completed first (C10.2), counted and
 * warned about (C10.4). Only completed records are ever in the eviction order, so a claim in
 * progress can never be chosen.
 *
 * <p>The eviction order is a queue of completed records in the order they were completed: a
 * completion appends, an eviction takes from the head, each in constant time. A record that left
 * the map (deleted, purged, claimed again once expired) stays in the queue until it is reached, and
 * is skipped then, since an eviction removes a record only while the map still holds that very
 * record. Such records are dropped from the head by {@link #trim}, and the whole queue is swept of
 * them when they outnumber the records it holds, so it never grows past about twice the completed
 * records (an earlier, completion-time-sorted skip list cost a logarithmic insertion and removal,
 * each a chain of comparisons, on every completion and every purge: the largest single cost of a
 * busy in-memory store).
 *
 * <p>The store keeps the counts in step with its maps: each change of an entry adds the new entry's
 * {@link #footprint} and takes off the old one's. Room for a new entry is taken with {@link
 * #reserve}, which refuses (with {@link Full}) rather than go past a limit. Thread-safe.
 */
final class MemoryBudget {

    /**
     * What one entry costs beyond its key, fingerprint, body and headers: the map node, the record,
     * its instants and token, and its place in the eviction order, estimated.
     */
    static final long ENTRY_OVERHEAD_BYTES = 384;

    /** Records left behind in the queue that are always tolerated before it is swept. */
    static final int STALE_SLACK = 1024;

    /** The store's logger: the warning is about the store, and named for it in the docs. */
    private static final System.Logger LOG =
            System.getLogger(InMemoryIdempotencyStore.class.getName());

    /** The shortest time between two warnings about evictions. */
    static final Duration EVICTION_WARNING_INTERVAL = Duration.ofMinutes(1);

    private final int maxSize;
    private final long maxBytes;
    private final Clock clock;
    private final ConcurrentHashMap<String, IdempotencyRecord> records;
    private final Consumer<String> onEvicted;
    private final AtomicReference<Instant> lastEvictionWarning = new AtomicReference<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();

    /** Completed records, least recently completed at the head; some may have left the map. */
    private final ConcurrentLinkedQueue<IdempotencyRecord> completed =
            new ConcurrentLinkedQueue<>();

    /** Entries of {@link #completed}, held or not ({@code size()} would walk the queue). */
    private final AtomicInteger queued = new AtomicInteger();

    /** Completed records in the map, as far as the queue is concerned. */
    private final AtomicInteger completedHeld = new AtomicInteger();

    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final AtomicLong evictions = new AtomicLong();
    private final AtomicLong refusals = new AtomicLong();

    /**
     * @param maxSize the most entries
     * @param maxBytes the most estimated bytes
     * @param clock the store's clock, for the warnings' interval
     * @param records the store's records, which evictions remove from
     * @param onEvicted told the key of each evicted record, to wake its waiters
     */
    MemoryBudget(
            int maxSize,
            long maxBytes,
            Clock clock,
            ConcurrentHashMap<String, IdempotencyRecord> records,
            Consumer<String> onEvicted) {
        if (maxSize <= 0) {
            throw new IllegalArgumentException("maxSize must be positive, was " + maxSize);
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
        }
        this.maxSize = maxSize;
        this.maxBytes = maxBytes;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.records = Objects.requireNonNull(records, "records");
        this.onEvicted = Objects.requireNonNull(onEvicted, "onEvicted");
    }

    /**
     * @param record a record, or {@code null}
     * @return its estimated bytes: key, fingerprint, body and header characters plus the overhead;
     *     0 for {@code null}
     */
    static long footprint(IdempotencyRecord record) {
        if (record == null) {
            return 0;
        }
        long total = ENTRY_OVERHEAD_BYTES + record.key().length() + record.fingerprint().length();
        StoredResult result = record.result();
        if (result != null) {
            total += result.bodyLength();
            for (StoredHeader header : result.headers()) {
                total += header.name().length() + header.value().length();
            }
        }
        return total;
    }

    /**
     * @param attemptsKey the key of an attempt count
     * @return the count's estimated bytes
     */
    static long footprint(String attemptsKey) {
        return ENTRY_OVERHEAD_BYTES + attemptsKey.length();
    }

    /**
     * Takes room for one new entry of {@code entryBytes}.
     *
     * @throws Full when either limit would be passed; nothing is taken then
     */
    void reserve(long entryBytes) {
        int entries;
        do {
            entries = size.get();
            if (entries >= maxSize) {
                throw Full.INSTANCE;
            }
        } while (!size.compareAndSet(entries, entries + 1));
        long held;
        do {
            held = bytes.get();
            if (held + entryBytes > maxBytes) {
                size.decrementAndGet();
                throw Full.INSTANCE;
            }
        } while (!bytes.compareAndSet(held, held + entryBytes));
    }

    /**
     * An entry changed in place (a claim completed, a lapsed record claimed again): never refused,
     * since the operation has run or the key's room was already taken. A completed record is put in
     * the eviction order by {@link #completed}, once the map holds it.
     */
    void resize(IdempotencyRecord before, IdempotencyRecord after) {
        bytes.addAndGet(footprint(after) - footprint(before));
        if (before != null && before.state() == RecordState.COMPLETED) {
            completedHeld.decrementAndGet();
        }
    }

    /**
     * Puts a record the map now holds, just completed, last in the eviction order. Called after the
     * map's update, not inside it: a record in the queue that the map does not hold (yet) would be
     * taken for one that left it.
     */
    void completed(IdempotencyRecord record) {
        completed.add(record);
        completedHeld.incrementAndGet();
        if (mostlyLeft(queued.incrementAndGet())) {
            sweepQueue();
        }
    }

    /** An entry of {@code entryBytes} left its map. */
    void free(long entryBytes) {
        size.decrementAndGet();
        bytes.addAndGet(-entryBytes);
    }

    /** A record left the store's map (deleted, purged, evicted). */
    void left(IdempotencyRecord record) {
        if (record.state() == RecordState.COMPLETED) {
            completedHeld.decrementAndGet();
        }
        free(footprint(record));
    }

    /**
     * Drops the records at the head of the eviction order that left the map, then sweeps the whole
     * queue if those behind still outnumber the records it holds. The store's purge calls it (the
     * sweeper's, or a full store's), having removed the oldest records: those at the head.
     */
    void trim() {
        IdempotencyRecord head;
        while ((head = completed.peek()) != null && !held(head)) {
            if (completed.remove(head)) {
                queued.decrementAndGet();
            }
        }
        if (mostlyLeft(queued.get())) {
            sweepQueue();
        }
    }

    /** Whether records that left the map outnumber, with room to spare, those the queue holds. */
    private boolean mostlyLeft(int inQueue) {
        return inQueue > 2 * Math.max(completedHeld.get(), 0) + STALE_SLACK;
    }

    /** Removes every record that left the map from the queue; one thread at a time. */
    private void sweepQueue() {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            completed.removeIf(record -> !held(record));
            // Counted again rather than decremented per removal: an eviction polling the same
            // record meanwhile would count it twice. A completion appended during the count may
            // be off by one until the next sweep.
            queued.set(completed.size());
        } finally {
            sweeping.set(false);
        }
    }

    /** Whether the map still holds this very record (records are immutable, new on each change). */
    private boolean held(IdempotencyRecord record) {
        return records.get(record.key()) == record;
    }

    /**
     * @return the entries of the eviction order, held or not: for tests
     */
    int queued() {
        return queued.get();
    }

    /**
     * Evicts the least recently completed record that is still held (C10.2). The removal is
     * conditional on the record being the one chosen, so a record that changed meanwhile (deleted,
     * purged, claimed again once expired) is skipped, and a claim in progress is never removed.
     *
     * @return whether a record was evicted; {@code false} when no completed record is held
     */
    boolean evictLeastRecentlyCompleted() {
        IdempotencyRecord oldest;
        while ((oldest = completed.poll()) != null) {
            queued.decrementAndGet();
            if (records.remove(oldest.key(), oldest)) {
                left(oldest);
                onEvicted.accept(oldest.key());
                warnAboutEvictions(evictions.incrementAndGet());
                return true;
            }
        }
        return false;
    }

    /** An eviction weakens effectively-once for its key; say so, at most once a minute (C10.4). */
    private void warnAboutEvictions(long total) {
        Instant now = clock.instant();
        Instant last = lastEvictionWarning.get();
        if (last != null && now.isBefore(last.plus(EVICTION_WARNING_INTERVAL))
                || !lastEvictionWarning.compareAndSet(last, now)) {
            return;
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "The in-memory idempotency store is full ("
                        + limits()
                        + ") and evicts completed records to make room, least recently completed"
                        + " first ("
                        + total
                        + " so far): a retry of an evicted key runs its operation again. Raise the"
                        + " limits, shorten idemkit.completed-ttl, or use the MongoDB or JDBC"
                        + " store.");
    }

    /**
     * Counts a refusal (C10.3).
     *
     * @param what what was refused, for the message
     * @return the storage error to throw
     */
    IdempotencyStorageException refused(String what) {
        refusals.incrementAndGet();
        return new IdempotencyStorageException(
                IdempotencyStorageException.Kind.REFUSED,
                "The in-memory idempotency store is full of operations in progress ("
                        + limits()
                        + "); "
                        + what
                        + ". Raise the limits, or use the MongoDB or JDBC store.",
                null);
    }

    private String limits() {
        return maxSize
                + " entries, idemkit.memory.max-size; "
                + maxBytes
                + " bytes, idemkit.memory.max-bytes";
    }

    boolean overBytes() {
        return bytes.get() > maxBytes;
    }

    int size() {
        return size.get();
    }

    long bytes() {
        return bytes.get();
    }

    int maxSize() {
        return maxSize;
    }

    long maxBytes() {
        return maxBytes;
    }

    long evictions() {
        return evictions.get();
    }

    long refusals() {
        return refusals.get();
    }

    /** Raised, inside a map update, when a new entry would pass a limit. */
    static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** Shared: it carries no stack trace and no state. */
        static final Full INSTANCE = new Full();

        private Full() {
            super(null, null, false, false);
        }
    }
}
