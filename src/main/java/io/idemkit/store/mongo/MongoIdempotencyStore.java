package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.result.UpdateResult;
import com.mongodb.connection.ClusterDescription;
import io.idemkit.IdempotencyException;
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
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.bson.BsonDocument;

/**
 * The production idempotency store (contract C9): one MongoDB document per effective key, {@code
 * _id} = the key, laid out as idemkit's Python store lays it out so that both can share a
 * collection. Works on MongoDB 4.4 to 8.x, standalone, replica set (use {@code majority} write
 * concern) and sharded with {@code _id} as the shard key, and on mongo-java-server.
 *
 * <h2>Round trips</h2>
 *
 * A fresh claim and a replay are one round trip each; a fresh request in total is two (claim and
 * complete). Taking over an expired lease, a lapsed result or an unreadable document takes a second
 * round trip, on that path only. {@link #complete complete} and {@link #renew renew} are one {@code
 * updateOne}, {@link #release release} and {@link #delete delete} one {@code deleteOne}. The first
 * use of a store also lists (and if needed creates) the TTL index, samples the server clock three
 * times and probes once whether the server runs update pipelines. The clock is sampled again as
 * {@link ServerTimeEstimate} describes: every 30 s by the injected clock, at once after the client
 * clock steps, after a wait found the server disagreeing with the estimate, and after the driver
 * reported a new primary. A replay writes nothing.
 *
 * <h2>The claim, step by step</h2>
 *
 * <ol>
 *   <li>{@code findOneAndUpdate({_id: key, lease_until: {$gt: T}}, {$setOnInsert: <new claim>},
 *       upsert, return after)}, where T is the estimated server time plus {@link #LIVE_MARGIN}. A
 *       record whose lease (or, completed, whose retention) reaches beyond T is returned untouched:
 *       readable, it is {@link ClaimStatus#ALREADY_CLAIMED ALREADY_CLAIMED} or {@link
 *       ClaimStatus#ALREADY_COMPLETED ALREADY_COMPLETED}. An absent key is inserted with the new
 *       claim: the returned token is ours, {@link ClaimStatus#NEW NEW}.
 *   <li>Any other existing document (lapsed, about to lapse, or without a usable lease) makes the
 *       insert fail with a duplicate key, and so does an insert that lost a race. Then {@code
 *       findOneAndUpdate({_id: key, $expr: {$not: {$gt: ["$lease_until", "$$NOW"]}}}, {$set: <new
 *       claim>, $unset: <result>}, return before)} takes it over if, and only if, the server's own
 *       clock finds it not live, at the moment of the write; of racing claimers only the first
 *       still matches. The document returned tells what was replaced: a claim ({@link
 *       ClaimStatus#LEASE_RECLAIMED LEASE_RECLAIMED}), a lapsed result ({@code NEW}) or an
 *       unreadable document ({@code NEW}, recovered from corrupt).
 *   <li>A takeover that matches nothing means the record is live by the server's clock (it was
 *       about to lapse, or a racer's claim is in it): one {@code find({_id: key, $expr: live})}
 *       returns it, and it is answered as in step 1.
 *   <li>An unreadable document that looks live is overwritten with the takeover's update, but
 *       filtered on its token, state and lease as read (each by value, by absence, or for a regex
 *       by "still not a string / date"). Every claim writes a fresh random token, and complete and
 *       renew rewrite the state or lease, so once one racer has overwritten it, no other racer's
 *       filter matches. The result is {@code NEW} with {@code recoveredFromCorrupt}.
 *   <li>A step that finds the document gone or changed starts the claim again, a bounded number of
 *       times.
 * </ol>
 *
 * So a fresh claim and a replay take one round trip; an expired lease or result two (the failed
 * insert, the takeover); a record in its last {@link #LIVE_MARGIN} and the loser of a race on a new
 * key three.
 *
 * <h2>What this relies on from MongoDB, and why it is built this way</h2>
 *
 * <ul>
 *   <li>MongoDB refuses {@code $expr} in the filter of any upsert ("$expr is not allowed in the
 *       query when upsert=true", the server's own {@code jstests/core/expr.js}; error 224
 *       QueryFeatureNotAllowed; JIRA DOCS-14158). mongo-java-server accepts such an upsert, but the
 *       store cannot use it. Step 1 therefore compares {@code lease_until} with a plain {@code $gt}
 *       on the estimated server time, which an upsert allows; its insert holds the filter's
 *       equality fields ({@code _id}) plus the {@code $setOnInsert} fields (the manual, "upsert
 *       behavior"). The margin makes a record it takes as live live by the server's clock too,
 *       unless the estimate is off by more than the margin; it can never make the store take a
 *       record over, which only the server's {@code $$NOW} does (MongoDB 4.2+ supports {@code
 *       $expr} with {@code $$NOW} in filters that do not upsert). A constant JVM clock skew cancels
 *       out of the estimate.
 *   <li>Because step 1's filter is not equality alone, the server does not retry its duplicate-key
 *       failure itself (it does so, from 4.2, only for upserts whose filter is equality on the
 *       unique index: JIRA SERVER-14322, SERVER-37124, SERVER-47212): the failure reaches the
 *       store, which is what starts step 2.
 *   <li>Duplicate key is recognized as {@code ErrorCategory.DUPLICATE_KEY} on a {@code
 *       MongoWriteException} or a {@code MongoCommandException}: {@code findAndModify} reports it
 *       as the latter (JIRA CSHARP-971 shows the same in another driver).
 *   <li>{@code isMaster} is an alias of {@code hello} on every supported server (JIRA SERVER-49985;
 *       deprecated since 4.4.2, still served); {@code hello} is tried when a server refuses it (a
 *       strict Stable API client), and whichever answered is remembered ({@link
 *       ServerClockCommand}). Both report {@code localTime}.
 * </ul>
 *
 * <h2>Time</h2>
 *
 * Every takeover, read and purge compares against the server's clock ({@code $$NOW}). What the
 * store writes ({@code claimed_at}, {@code lease_until}, {@code expire_at}, {@code completed_at})
 * is stamped in one of two ways, chosen once at first use by a probe ({@link
 * #stampsWithServerClock()}):
 *
 * <ul>
 *   <li><b>Pipeline path</b> (MongoDB 4.2+): the updates are pipelines ({@link
 *       ServerStampedUpdates}) that compute every date from the server's {@code $$NOW} when it
 *       applies the write, so a delay in transit cannot shorten a lease. The step-1 upsert keeps a
 *       matched document as it is, so a replay still changes nothing, and the pinned takeover is
 *       unchanged. A takeover returns the record with estimated stamps (its document before the
 *       write tells what was replaced); {@code find} returns the server's.
 *   <li><b>Fallback path</b> (servers without pipelines, such as mongo-java-server): the dates are
 *       the server time estimated from the injected {@link Clock} and a measured offset ({@link
 *       ServerTimeEstimate}), computed when the write is sent; {@code $currentDate} cannot be used
 *       because it would also rewrite a live record that a claim must leave alone. A lease then
 *       loses what the write spends in transit, which {@link MongoLeaseRule} bounds.
 * </ul>
 *
 * A JVM clock that is off by any constant amount changes neither a decision nor a stamp. The JVM
 * clock is never read directly.
 *
 * <h2>Failures</h2>
 *
 * Each operation is bounded by {@link MongoStoreSettings#timeout()} (the driver's client-side
 * operation timeout, covering server selection and connecting). Every failure surfaces as {@link
 * IdempotencyStorageException} with the driver's message, never a raw driver exception and never
 * the key. The message tells a write the write concern did not confirm (the write may have landed:
 * a claim then holds the key until its lease ends) from a server that could not be reached in time
 * (nothing is known to be written). A store recovers by itself when the server comes back: nothing
 * is cached that a restart would need to reset.
 *
 * <p>Instances are thread-safe; one serves a whole application. Constructing one does not connect.
 */
public final class MongoIdempotencyStore implements IdempotencyStore {

    /** MongoDB's document size limit, 16 MiB, on every supported version. */
    static final long MAX_DOCUMENT_BYTES = 16L * 1024 * 1024;

    private static final String NAME = "mongodb";
    private static final int MAX_CLAIM_ATTEMPTS = 5;
    private static final int WRITE_CONCERN_FAILED = 64;

    /**
     * How far beyond the estimated server time a lease must reach for the first step of a claim to
     * take the record as live without asking the server's clock. It covers the estimate's error
     * (half a round trip, and a clock step too small to be noticed at once); a record closer to its
     * end than this goes to the server-decided takeover instead.
     */
    static final Duration LIVE_MARGIN = Duration.ofSeconds(2);

    private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final System.Logger LOG =
            System.getLogger(MongoIdempotencyStore.class.getName());

    private final MongoStoreSettings settings;
    private final Clock clock;
    private final Supplier<MongoDatabase> database;
    private final CompletionSignals signals = new CompletionSignals();
    private final ReentrantLock starting = new ReentrantLock();
    private final PrimaryWatch primaryWatch = new PrimaryWatch(this::onNewPrimary);

    /** An application client's cluster, polled on each use; {@code null} where none is known. */
    private final Supplier<ClusterDescription> cluster;

    private volatile Connection connection;
    private volatile boolean closed;
    private volatile boolean stampsWithServerClock;

    /** Guarded by {@link #starting}; only set when this store created the client. */
    private MongoClient ownClient;

    private MongoDatabase resolvedDatabase;

    private ServerClockCommand clockCommand;

    /**
     * A store that creates its own {@code MongoClient} from {@link MongoStoreSettings#uri()} on
     * first use, and closes it in {@link #close()}.
     *
     * @param settings the settings; {@code uri} must be set
     * @param clock the clock the server time is estimated from; only stamps depend on it
     * @throws IllegalArgumentException if {@code settings} has no URI
     */
    public MongoIdempotencyStore(MongoStoreSettings settings, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (settings.uri() == null) {
            throw new IllegalArgumentException(
                    "idemkit.mongo.uri is not set: give the store a connection string, or a"
                            + " MongoClient or MongoDatabase");
        }
        this.database = this::ownDatabase;
        this.cluster = null; // the store's own client reports to primaryWatch as a listener
    }

    /**
     * A store on an application's own {@code MongoClient}, which the store never closes. The
     * client's write concern applies unless {@link MongoStoreSettings#writeConcern()} is set. The
     * store reads from the primary whatever the client's read preference, bounds each operation by
     * {@link MongoStoreSettings#timeout()}, and ignores {@link MongoStoreSettings#uri()}.
     *
     * @param client the client to use
     * @param settings the settings; {@code database} and {@code collection} name the collection
     * @param clock the clock the server time is estimated from; only stamps depend on it
     */
    public MongoIdempotencyStore(MongoClient client, MongoStoreSettings settings, Clock clock) {
        Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.database = () -> client.getDatabase(settings.database());
        this.cluster = client::getClusterDescription;
    }

    /**
     * A store on an application's own {@code MongoDatabase}, whose client the store never closes.
     * As with a client, reads go to the primary and each operation is bounded by {@link
     * MongoStoreSettings#timeout()}; {@link MongoStoreSettings#uri()} and {@link
     * MongoStoreSettings#database()} are ignored.
     *
     * @param database the database holding the collection
     * @param settings the settings; {@code collection} names the collection
     * @param clock the clock the server time is estimated from; only stamps depend on it
     */
    public MongoIdempotencyStore(MongoDatabase database, MongoStoreSettings settings, Clock clock) {
        Objects.requireNonNull(database, "database");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.database = () -> database;
        this.cluster = null;
    }

    // --- the SPI -------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>One round trip when the key is absent or live; two when an expired or unreadable record is
     * taken over. See the class comment for the algorithm. A claim made with a fingerprint version
     * this library does not know is written as asked, and reads back as unreadable (C3).
     */
    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireFingerprint(fingerprint);
        StoreArguments.requireFingerprintVersion(fingerprintVersion);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
        return call("claim", key, c -> claim(c, key, fingerprint, fingerprintVersion, leaseTtl));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@code updateOne} on {@code {_id, state: CLAIMED, claim_token}}. A result whose stored
     * document would exceed MongoDB's 16 MiB limit is refused before anything is sent; the claim is
     * then still held.
     */
    @Override
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        StoreArguments.requireResult(result);
        StoreArguments.requireTtl(completedTtl, "completedTtl");
        long size = RecordLayout.completedSizeBound(result);
        if (size > MAX_DOCUMENT_BYTES) {
            throw new IdempotencyStorageException(
                    IdempotencyStorageException.Kind.REFUSED,
                    "MongoDB store refused to store a result of about "
                            + size
                            + " bytes ("
                            + result.bodyLength()
                            + " body bytes): MongoDB documents are limited to 16 MiB. Lower"
                            + " idemkit.max-body-bytes so that such results are delivered"
                            + " without being stored.",
                    null);
        }
        boolean stored =
                call(
                        "complete",
                        key,
                        c -> {
                            Instant now = c.time().now();
                            Instant completedAt = RecordLayout.millis(now);
                            Instant retainUntil = RecordLayout.plus(completedAt, completedTtl);
                            Instant expireAt =
                                    RecordLayout.plus(retainUntil, settings.leaseGrace());
                            BsonDocument filter = RecordLayout.claimedWith(key, token);
                            UpdateResult written =
                                    c.serverStamps()
                                            ? c.records()
                                                    .updateOne(
                                                            filter,
                                                            ServerStampedUpdates.complete(
                                                                    token,
                                                                    result,
                                                                    completedTtl,
                                                                    settings.leaseGrace()))
                                            : c.records()
                                                    .updateOne(
                                                            filter,
                                                            RecordLayout.complete(
                                                                    token,
                                                                    completedAt,
                                                                    retainUntil,
                                                                    expireAt,
                                                                    result));
                            return written.getMatchedCount() == 1;
                        });
        if (stored) {
            signals.signal(key);
        } else {
            LOG.log(Level.DEBUG, () -> "complete lost its claim on " + key);
        }
        return stored;
    }

    /** {@inheritDoc} One {@code deleteOne} on {@code {_id, state: CLAIMED, claim_token}}. */
    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        boolean released =
                call(
                        "release",
                        key,
                        c ->
                                c.records()
                                                .deleteOne(RecordLayout.claimedWith(key, token))
                                                .getDeletedCount()
                                        == 1);
        if (released) {
            signals.signal(key);
        }
        return released;
    }

    /** {@inheritDoc} One {@code updateOne} on {@code {_id, state: CLAIMED, claim_token}}. */
    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
        return call(
                "renew",
                key,
                c -> {
                    BsonDocument filter = RecordLayout.claimedWith(key, token);
                    if (c.serverStamps()) {
                        return c.records()
                                        .updateOne(
                                                filter,
                                                ServerStampedUpdates.renew(
                                                        leaseTtl, settings.leaseGrace()))
                                        .getMatchedCount()
                                == 1;
                    }
                    Instant leaseUntil =
                            RecordLayout.plus(RecordLayout.millis(c.time().now()), leaseTtl);
                    return c.records()
                                    .updateOne(
                                            filter,
                                            RecordLayout.renew(
                                                    leaseUntil,
                                                    RecordLayout.plus(
                                                            leaseUntil, settings.leaseGrace())))
                                    .getMatchedCount()
                            == 1;
                });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Polls with {@code find({_id, $expr: live})}, first after 10 ms, doubling up to 500 ms,
     * never past the deadline; a completion, release or delete through this instance ends the
     * current pause at once. Polling is the correctness floor: change streams would need a replica
     * set.
     */
    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        StoreArguments.requireKey(key);
        StoreArguments.requireTimeout(timeout);
        long started = System.nanoTime();
        long limit = StoreArguments.saturatedNanos(timeout);
        try (CompletionSignals.Subscription wakeUp = signals.subscribe(key)) {
            long pause = FIRST_POLL_NANOS;
            boolean first = true;
            while (true) {
                Optional<IdempotencyRecord> record = readLive(key);
                if (record.isEmpty() && first) {
                    // The claim just found this record live; if the server finds it lapsed at
                    // once, its clock may be ahead of the estimate: measure before the next claim.
                    call("awaitCompletion", key, c -> c.time()).suspect();
                }
                if (record.isEmpty() || record.get().state() == RecordState.COMPLETED) {
                    return record;
                }
                first = false;
                // A difference of nanoTime readings cannot overflow, a deadline could.
                long remaining = limit - (System.nanoTime() - started);
                if (remaining <= 0) {
                    return Optional.empty();
                }
                wakeUp.await(Math.min(pause, remaining));
                pause = Math.min(pause * 2, MAX_POLL_NANOS);
            }
        }
    }

    /** {@inheritDoc} One {@code find}; expiry is checked by the server ({@code $$NOW}). */
    @Override
    public Optional<IdempotencyRecord> find(String key) {
        StoreArguments.requireKey(key);
        return call(
                "find",
                key,
                c -> readable(key, c.records().find(RecordLayout.visible(key)).first()));
    }

    /** {@inheritDoc} One {@code deleteOne({_id})}. */
    @Override
    public boolean delete(String key) {
        StoreArguments.requireKey(key);
        boolean deleted =
                call(
                        "delete",
                        key,
                        c -> c.records().deleteOne(RecordLayout.byKey(key)).getDeletedCount() == 1);
        if (deleted) {
            signals.signal(key);
        }
        return deleted;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The injected clock plus the measured offset; measures it first on first use.
     */
    @Override
    public Instant now() {
        return call("now", null, c -> c.time().now());
    }

    /**
     * @return {@code mongodb}
     */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * Which write path the store took, for diagnostics: probed once at first use.
     *
     * @return {@code true} once the store found that the server runs update pipelines (MongoDB
     *     4.2+) and so stamps {@code claimed_at}, {@code lease_until}, {@code expire_at} and {@code
     *     completed_at} with the server's own {@code $$NOW}; {@code false} before first use and on
     *     a server without pipelines (mongo-java-server), where they are stamped with the estimated
     *     server time
     */
    public boolean stampsWithServerClock() {
        return stampsWithServerClock;
    }

    /**
     * Deletes every record past its {@code expire_at} (lease or retention end plus the grace), or
     * without one, that is not live as the server's clock sees it: what the TTL index deletes, for
     * deployments where TTL deletion lags, is disabled, or (mongo-java-server) never happens. An
     * unreadable record whose {@code lease_until} is not a date counts as not live, whatever its
     * type. The filter's plain condition on {@code expire_at} lets the server use the TTL index.
     * Never deletes a live record. Safe to run at any time, from any number of instances.
     *
     * @return how many records were deleted
     * @throws IdempotencyStorageException if the store fails
     */
    @Override
    public long purgeExpired() {
        return call(
                "purgeExpired",
                null,
                c ->
                        c.records()
                                .deleteMany(
                                        RecordLayout.purgeable(c.time().now().plus(LIVE_MARGIN)))
                                .getDeletedCount());
    }

    /**
     * Closes the client this store created, if any; a client or database given to the store is left
     * open. Wakes every waiter. Afterwards every operation fails with {@link
     * IdempotencyStorageException}. Idempotent.
     */
    @Override
    public void close() {
        starting.lock();
        try {
            closed = true;
            connection = null;
            if (ownClient != null) {
                ownClient.close();
                ownClient = null;
            }
        } finally {
            starting.unlock();
        }
        signals.signalAll();
    }

    @Override
    public String toString() {
        return "MongoIdempotencyStore[" + settings + "]";
    }

    // --- the claim -----------------------------------------------------------------------------

    private ClaimResult claim(
            Connection c, String key, String fingerprint, int version, Duration leaseTtl) {
        for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
            Instant estimate = c.time().now();
            RecordLayout.Claim claim =
                    RecordLayout.Claim.at(
                            estimate, fingerprint, version, leaseTtl, settings.leaseGrace());
            BsonDocument found;
            BsonDocument liveFilter = RecordLayout.liveBeyond(key, estimate.plus(LIVE_MARGIN));
            FindOneAndUpdateOptions upsert =
                    new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER);
            try {
                found =
                        c.serverStamps()
                                ? c.records()
                                        .findOneAndUpdate(
                                                liveFilter,
                                                ServerStampedUpdates.insertClaim(
                                                        key,
                                                        claim.constants(),
                                                        leaseTtl,
                                                        settings.leaseGrace()),
                                                upsert)
                                : c.records()
                                        .findOneAndUpdate(
                                                liveFilter,
                                                RecordLayout.insertClaim(claim),
                                                upsert);
            } catch (MongoException e) {
                if (!isDuplicateKey(e)) {
                    throw e;
                }
                // A document exists that is not surely live, or a racing claim inserted one:
                // the server's clock decides whether it may be taken over.
                Optional<ClaimResult> taken =
                        takeOver(c, key, RecordLayout.notLive(key), fingerprint, version, leaseTtl);
                if (taken.isPresent()) {
                    return taken.get();
                }
                found = c.records().find(RecordLayout.live(key)).first();
            }
            BsonDocument doc = found;
            if (doc == null) {
                continue; // deleted, or lapsed, between two steps: start again
            }
            if (RecordLayout.carriesToken(doc, claim.token())) {
                return ClaimResult.of(
                        ClaimStatus.NEW,
                        c.serverStamps()
                                ? RecordLayout.claimStamps(doc)
                                        .map(stamps -> claim.record(key, stamps))
                                        .orElseGet(() -> claim.record(key))
                                : claim.record(key));
            }
            Optional<IdempotencyRecord> existing = RecordLayout.read(doc);
            if (existing.isPresent()) {
                IdempotencyRecord live = existing.get();
                return ClaimResult.of(
                        live.state() == RecordState.COMPLETED
                                ? ClaimStatus.ALREADY_COMPLETED
                                : ClaimStatus.ALREADY_CLAIMED,
                        live);
            }
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "Record "
                                    + key
                                    + " is unreadable ("
                                    + RecordLayout.unreadableReason(doc).orElse("?")
                                    + "); overwriting it");
            Optional<ClaimResult> taken =
                    takeOver(c, key, RecordLayout.pinned(key, doc), fingerprint, version, leaseTtl);
            if (taken.isPresent()) {
                return taken.get();
            }
        }
        throw new IdempotencyStorageException(
                "MongoDB claim gave up after "
                        + MAX_CLAIM_ATTEMPTS
                        + " attempts: the record kept changing under concurrent claims. Retry"
                        + " the operation.");
    }

    private Optional<ClaimResult> takeOver(
            Connection c,
            String key,
            BsonDocument filter,
            String fingerprint,
            int version,
            Duration leaseTtl) {
        RecordLayout.Claim claim =
                RecordLayout.Claim.at(
                        c.time().now(), fingerprint, version, leaseTtl, settings.leaseGrace());
        // The document before the write tells what was replaced. On the pipeline path the record
        // returned therefore carries the estimated stamps, not the server's (find reads those).
        FindOneAndUpdateOptions before =
                new FindOneAndUpdateOptions().returnDocument(ReturnDocument.BEFORE);
        BsonDocument replacedDoc =
                c.serverStamps()
                        ? c.records()
                                .findOneAndUpdate(
                                        filter,
                                        ServerStampedUpdates.takeOver(
                                                claim.constants(), leaseTtl, settings.leaseGrace()),
                                        before)
                        : c.records()
                                .findOneAndUpdate(filter, RecordLayout.takeOver(claim), before);
        if (replacedDoc == null) {
            return Optional.empty();
        }
        IdempotencyRecord mine = claim.record(key);
        Optional<IdempotencyRecord> replaced = RecordLayout.read(replacedDoc);
        if (replaced.isEmpty()) {
            return Optional.of(new ClaimResult(ClaimStatus.NEW, mine, true));
        }
        LOG.log(Level.DEBUG, () -> "Took over the lapsed record " + key);
        return Optional.of(
                ClaimResult.of(
                        replaced.get().state() == RecordState.CLAIMED
                                ? ClaimStatus.LEASE_RECLAIMED
                                : ClaimStatus.NEW,
                        mine));
    }

    private Optional<IdempotencyRecord> readLive(String key) throws InterruptedException {
        try {
            return call(
                    "awaitCompletion",
                    key,
                    c -> readable(key, c.records().find(RecordLayout.live(key)).first()));
        } catch (IdempotencyStorageException e) {
            if (e.getCause() instanceof MongoInterruptedException) {
                // InterruptedException carries the interrupt; the flag is cleared as usual.
                Thread.interrupted();
                throw new InterruptedException("interrupted while waiting for a completion");
            }
            throw e;
        }
    }

    private static Optional<IdempotencyRecord> readable(String key, BsonDocument doc) {
        if (doc == null) {
            return Optional.empty();
        }
        Optional<IdempotencyRecord> record = RecordLayout.read(doc);
        if (record.isEmpty()) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "Record "
                                    + key
                                    + " is unreadable ("
                                    + RecordLayout.unreadableReason(doc).orElse("?")
                                    + "); treated as absent");
        }
        return record;
    }

    // --- connecting --------------------------------------------------------------------------

    /**
     * What a started store works with.
     *
     * @param serverStamps whether the server runs update pipelines, so that writes stamp their
     *     dates with its {@code $$NOW}
     */
    private record Connection(
            MongoCollection<BsonDocument> records, ServerTimeEstimate time, boolean serverStamps) {}

    private interface Operation<T> {
        T run(Connection connection);
    }

    private <T> T call(String operation, String key, Operation<T> body) {
        try {
            if (cluster != null) {
                primaryWatch.observe(cluster.get());
            }
            return body.run(connection());
        } catch (IdempotencyException e) {
            throw e;
        } catch (MongoInterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(operation, key, e);
        } catch (RuntimeException e) {
            throw failure(operation, key, e);
        }
    }

    private Connection connection() {
        Connection c = connection;
        if (c != null) {
            return c;
        }
        starting.lock();
        try {
            if (closed) {
                throw new IdempotencyStorageException("MongoDB store is closed");
            }
            if (connection == null) {
                connection = start();
            }
            return connection;
        } finally {
            starting.unlock();
        }
    }

    /** Runs under {@link #starting}. Raises when the server cannot be reached; retried next use. */
    private Connection start() {
        if (resolvedDatabase == null) {
            long timeoutMillis = settings.timeout().toMillis();
            MongoDatabase db =
                    database.get()
                            // The driver's client-side operation timeout (CSOT), @Alpha in
                            // driver 5.x, bounds server selection, connecting and the command.
                            .withTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                            .withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry())
                            // Every decision must see the latest write: read the primary.
                            .withReadPreference(ReadPreference.primary());
            Optional<WriteConcern> wc = settings.driverWriteConcern();
            if (wc.isPresent()) {
                db = db.withWriteConcern(wc.get());
            }
            resolvedDatabase = db;
            MongoDatabase bound = db;
            clockCommand =
                    new ServerClockCommand(
                            command -> bound.runCommand(command, BsonDocument.class));
        }
        MongoDatabase db = resolvedDatabase;
        MongoCollection<BsonDocument> records =
                db.getCollection(settings.collection(), BsonDocument.class);
        TtlIndex.ensure(records);
        ServerTimeEstimate time = new ServerTimeEstimate(clock, clockCommand);
        time.now();
        boolean pipelines = ServerStampedUpdates.serverRuns(records);
        LOG.log(
                Level.DEBUG,
                () ->
                        "MongoDB store ready on "
                                + records.getNamespace()
                                + (pipelines
                                        ? "; dates are stamped by the server ($$NOW in update"
                                                + " pipelines)"
                                        : "; the server runs no update pipelines: dates are"
                                                + " stamped with the estimated server time"));
        stampsWithServerClock = pipelines;
        return new Connection(records, time, pipelines);
    }

    private MongoDatabase ownDatabase() {
        if (ownClient == null) {
            ConnectionString uri = new ConnectionString(settings.uri());
            ownClient =
                    MongoClients.create(
                            MongoClientSettings.builder()
                                    .applyConnectionString(uri)
                                    .timeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
                                    .applyToClusterSettings(
                                            cluster -> cluster.addClusterListener(primaryWatch))
                                    .build());
        }
        return ownClient.getDatabase(settings.database());
    }

    private void onNewPrimary() {
        Connection c = connection;
        if (c != null) {
            c.time().primaryChanged();
        }
    }

    // --- helpers -------------------------------------------------------------------------------

    private static boolean isDuplicateKey(MongoException e) {
        int code =
                e instanceof MongoWriteException w
                        ? w.getError().getCode()
                        : e instanceof MongoCommandException c ? c.getErrorCode() : e.getCode();
        return ErrorCategory.fromErrorCode(code) == ErrorCategory.DUPLICATE_KEY;
    }

    /**
     * Appended to the message of a write the primary applied but the write concern did not confirm.
     */
    static final String WRITE_NOT_CONFIRMED =
            " The primary applied the write, but the write concern (idemkit.mongo.write-concern)"
                    + " did not confirm it within idemkit.mongo.timeout: secondaries lag or are"
                    + " down. A claim may then have been written: it holds the key until its lease"
                    + " ends, and under fail-open the operation runs unprotected meanwhile.";

    /** Appended to the message of a failure to reach the server in time. */
    static final String UNREACHABLE =
            " MongoDB is unreachable or slower than idemkit.mongo.timeout: nothing is known to"
                    + " have been written. Under fail-closed the operation is refused; under"
                    + " fail-open it runs unprotected.";

    /**
     * Whether the server applied a write whose write concern then failed or timed out (error 64
     * WriteConcernFailed, or a wtimeout or time limit reported as a write concern error), however
     * the driver wraps it: CSOT reports it as a {@code MongoOperationTimeoutException} caused by
     * the write concern error.
     */
    static boolean writeNotConfirmed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MongoWriteConcernException) {
                return true;
            }
            if (t instanceof MongoBulkWriteException bulk && bulk.getWriteConcernError() != null) {
                return true;
            }
            if (t instanceof MongoCommandException command
                    && (command.getErrorCode() == WRITE_CONCERN_FAILED
                            || command.getResponse().containsKey("writeConcernError"))) {
                return true;
            }
        }
        return false;
    }

    static IdempotencyStorageException failure(String operation, String key, RuntimeException e) {
        StringBuilder message =
                new StringBuilder("MongoDB ")
                        .append(operation)
                        .append(" failed (")
                        .append(e.getClass().getSimpleName());
        if (e instanceof MongoException m && m.getCode() != -1) {
            message.append(", code ").append(m.getCode());
        }
        String detail = e.getMessage() == null ? "" : e.getMessage();
        if (key != null) {
            // The effective key is a hash, but it belongs in debug logs only.
            detail = detail.replace(key, "<key>");
        }
        message.append("): ").append(MongoStoreSettings.redact(detail));
        IdempotencyStorageException.Kind kind = IdempotencyStorageException.Kind.FAILED;
        if (writeNotConfirmed(e)) {
            message.append(WRITE_NOT_CONFIRMED);
            kind = IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED;
        } else if (e instanceof MongoTimeoutException
                || e instanceof MongoOperationTimeoutException
                || e instanceof MongoSocketException) {
            message.append(UNREACHABLE);
            kind = IdempotencyStorageException.Kind.UNREACHABLE;
        }
        // The cause is kept for its stack trace, unless its messages name the key.
        return new IdempotencyStorageException(
                kind, message.toString(), key != null && mentions(e, key) ? null : e);
    }

    private static boolean mentions(Throwable e, String key) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Asks the server for its clock in one round trip ({@code isMaster}), bounded by {@link
     * MongoStoreSettings#timeout()}, and returns how far it is from the injected clock: the
     * readiness check's ping. It connects first if the store has not yet. It does not change the
     * offset the store stamps with, which is measured on its own schedule.
     *
     * @return the server's time minus the injected clock's, at the midpoint of the round trip;
     *     positive when the server is ahead
     * @throws IdempotencyStorageException if the server cannot be reached within the timeout
     */
    public Duration measureClockOffset() {
        return call(
                "ping",
                null,
                c -> {
                    long before = clock.millis();
                    Instant server = clockCommand.get();
                    long after = clock.millis();
                    return Duration.ofMillis(
                            server.toEpochMilli() - (before + (after - before) / 2));
                });
    }

    /**
     * Up when the server answers a {@code ping}; reports the server's clock offset from this JVM as
     * {@code clockOffsetMillis} (see {@link #measureClockOffset()}).
     */
    @Override
    public StoreHealth health() {
        return StoreHealth.up(Map.of("clockOffsetMillis", measureClockOffset().toMillis()));
    }
}
