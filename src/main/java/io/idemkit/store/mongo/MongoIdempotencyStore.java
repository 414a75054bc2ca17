package io.idemkit.store.mongo;

import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreArguments;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.bson.BsonDocument;

/**
 * The production idempotency store (contract C9): one MongoDB document per effective key, {@code
 * _id} = the key, laid out as idemkit's Python store lays it out so that both can share a
 * collection ({@link RecordLayout}). Works on MongoDB 4.4 to 8.x, standalone, replica set (use
 * {@code majority} write concern) and sharded with {@code _id} as the shard key (another key is
 * refused at start), and on mongo-java-server. This class holds the SPI's methods; each job they
 * share has its own class: the claim ({@link ClaimAlgorithm}), how writes stamp their dates ({@link
 * UpdateForm}), the connection's lifecycle ({@link Connection}), the reading of documents ({@link
 * RecordReader}), the translation of driver failures ({@link DriverFailures}), and the wait of
 * {@link #awaitCompletion awaitCompletion} ({@link CompletionPoll}).
 *
 * <h2>Round trips</h2>
 *
 * A fresh claim and a replay are one round trip each; a fresh request in total is two (claim and
 * complete). Taking over an expired lease, a lapsed result or an unreadable document takes a second
 * round trip, on that path only. {@link #complete complete} and {@link #renew renew} are one {@code
 * updateOne}, {@link #release release} and {@link #delete delete} one {@code deleteOne}. The first
 * use of a store also samples the server clock three times (through a {@code mongos}, it then reads
 * the collection's shard key), lists (and if needed creates) the TTL index, and probes whether the
 * server runs update pipelines ({@link PipelineProbe}). The clock is sampled again as {@link
 * ServerTimeEstimate} describes: every 30 s by the injected clock, at once after the client clock
 * steps, after a wait found the server disagreeing with the estimate, and after the driver reported
 * a new primary. A replay writes nothing.
 *
 * <h2>Time</h2>
 *
 * Every takeover, read and purge compares against the server's clock ({@code $$NOW}). What the
 * store writes ({@code claimed_at}, {@code lease_until}, {@code expire_at}, {@code completed_at})
 * is stamped by the server or with the estimated server time, as the {@link UpdateForm} chosen once
 * at first use by a probe says ({@link #stampsWithServerClock()}). A JVM clock that is off by any
 * constant amount changes neither a decision nor a stamp. The JVM clock is never read directly. The
 * server's clock is read as {@link ServerClockCommand} describes.
 *
 * <p>"The server's clock" is the clock of the machine that runs a command: the primary on a replica
 * set, whichever {@code mongos} routes the command on a sharded cluster (the driver spreads them,
 * so a lease stamped by one router is judged by another), the new primary after a failover; the TTL
 * monitor deletes on the shard primary's clock. The store therefore requires synchronized clocks
 * (NTP) on every {@code mongod} and {@code mongos}, with a skew well under a third of the shortest
 * lease (a takeover judged by a clock ahead of the stamping one comes that much early) and under
 * {@link MongoStoreSettings#leaseGrace()} (at least 5 s, or TTL could delete a live claim).
 *
 * <h2>Failures</h2>
 *
 * Each operation is bounded by {@link MongoStoreSettings#timeout()} (the driver's client-side
 * operation timeout, covering server selection and connecting). Every failure surfaces as {@link
 * IdempotencyStorageException} with the driver's message, never a raw driver exception and never
 * the key ({@link DriverFailures}). The message tells a write the write concern did not confirm
 * (the write may have landed: a claim then holds the key until its lease ends) from a server that
 * could not be reached in time (nothing is known to be written). A store recovers by itself when
 * the server comes back: nothing is cached that a restart would need to reset.
 *
 * <p>Instances are thread-safe; one serves a whole application. Constructing one does not connect.
 */
public final class MongoIdempotencyStore implements IdempotencyStore {

    /** MongoDB's document size limit, 16 MiB, on every supported version. */
    static final long MAX_DOCUMENT_BYTES = 16L * 1024 * 1024;

    private static final String NAME = "mongodb";
    private static final System.Logger LOG =
            System.getLogger(MongoIdempotencyStore.class.getName());

    private final MongoStoreSettings settings;
    private final Clock clock;
    private final Connection connection;
    private final ClaimAlgorithm claims;
    private final CompletionPoll completions = new CompletionPoll();

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
        this.connection = Connection.ownClient(settings, clock);
        this.claims = new ClaimAlgorithm(settings.leaseGrace());
    }

    /**
     * A store on an application's own {@code MongoClient}, which the store never closes. The
     * client's write concern applies unless {@link MongoStoreSettings#writeConcern()} is set; an
     * unacknowledged one ({@code w:0}) is replaced by an acknowledged one, with a warning. The
     * store reads from the primary with read concern {@code local} whatever the client's, bounds
     * each operation by {@link MongoStoreSettings#timeout()}, and ignores {@link
     * MongoStoreSettings#uri()}.
     *
     * @param client the client to use
     * @param settings the settings; {@code database} and {@code collection} name the collection
     * @param clock the clock the server time is estimated from; only stamps depend on it
     */
    public MongoIdempotencyStore(MongoClient client, MongoStoreSettings settings, Clock clock) {
        Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.connection = Connection.onClient(client, settings, clock);
        this.claims = new ClaimAlgorithm(settings.leaseGrace());
    }

    /**
     * A store on an application's own {@code MongoDatabase}, whose client the store never closes.
     * The same settings are pinned as with a client. A database does not tell its client, so the
     * shard key is not checked at start (a claim on a collection sharded on another key fails with
     * a message that says so); {@link MongoStoreSettings#uri()} and {@link
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
        this.connection = Connection.onDatabase(database, settings, clock);
        this.claims = new ClaimAlgorithm(settings.leaseGrace());
    }

    // --- the SPI -------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>One round trip when the key is absent or live; two when an expired or unreadable record is
     * taken over. {@link ClaimAlgorithm} describes the algorithm. A claim made with a fingerprint
     * version this library does not compute is written as asked and read back as it is (C3).
     */
    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.checkClaim(key, fingerprint, fingerprintVersion, leaseTtl);
        return call(
                "claim", key, c -> claims.claim(c, key, fingerprint, fingerprintVersion, leaseTtl));
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
        StoreArguments.checkComplete(key, token, result, completedTtl);
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
                        c ->
                                c.form()
                                        .completeClaim(
                                                RecordLayout.claimedWith(key, token),
                                                token,
                                                result,
                                                completedTtl));
        if (stored) {
            completions.signal(key);
        } else {
            LOG.log(Level.DEBUG, () -> "complete lost its claim on " + key);
        }
        return stored;
    }

    /** {@inheritDoc} One {@code deleteOne} on {@code {_id, state: CLAIMED, claim_token}}. */
    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.checkRelease(key, token);
        boolean released =
                call(
                        "release",
                        key,
                        c ->
                                c.records()
                                                .deleteOne(RecordLayout.claimedWith(key, token))
                                                .getDeletedCount()
                                        == 1);
        return completions.signalIf(released, key);
    }

    /** {@inheritDoc} One {@code updateOne} on {@code {_id, state: CLAIMED, claim_token}}. */
    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.checkRenew(key, token, leaseTtl);
        return call(
                "renew",
                key,
                c -> c.form().renewLease(RecordLayout.claimedWith(key, token), leaseTtl));
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
        StoreArguments.checkAwaitCompletion(key, timeout);
        return completions.await(key, timeout, first -> readLive(key, first));
    }

    private Optional<IdempotencyRecord> readLive(String key, boolean first)
            throws InterruptedException {
        Optional<IdempotencyRecord> record =
                DriverFailures.interruptibly(
                        () ->
                                call(
                                        "awaitCompletion",
                                        key,
                                        c -> read(key, c.records().find(RecordLayout.live(key)))));
        if (record.isEmpty() && first) {
            // The claim just found this record live; if the server finds it lapsed at once, its
            // clock may be ahead of the estimate: measure before the next claim.
            call("awaitCompletion", key, c -> c.time()).suspect();
        }
        return record;
    }

    private static Optional<IdempotencyRecord> read(String key, FindIterable<BsonDocument> found) {
        return RecordReader.readOrAbsent(key, found.first());
    }

    /** {@inheritDoc} One {@code find}; expiry is checked by the server ({@code $$NOW}). */
    @Override
    public Optional<IdempotencyRecord> find(String key) {
        StoreArguments.requireKey(key);
        return call("find", key, c -> read(key, c.records().find(RecordLayout.visible(key))));
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
        return completions.signalIf(deleted, key);
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
     * Which write path the store took, for diagnostics: probed at the first use that reaches the
     * server, and again at the next use if the probe failed with anything but a refusal; logged
     * once at INFO.
     *
     * @return {@code true} once the store found that the server runs update pipelines (MongoDB
     *     4.2+) and so stamps {@code claimed_at}, {@code lease_until}, {@code expire_at} and {@code
     *     completed_at} with the server's own {@code $$NOW}; {@code false} before first use and on
     *     a server without pipelines (mongo-java-server), where they are stamped with the estimated
     *     server time
     */
    public boolean stampsWithServerClock() {
        return connection.stampsWithServerClock();
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
                                        RecordLayout.purgeable(
                                                c.time().now().plus(ClaimAlgorithm.LIVE_MARGIN)))
                                .getDeletedCount());
    }

    /**
     * Closes the client this store created, if any; a client or database given to the store is left
     * open. Wakes every waiter. Afterwards every operation fails with {@link
     * IdempotencyStorageException}. Idempotent.
     */
    @Override
    public void close() {
        connection.close();
        completions.signalAll();
    }

    @Override
    public String toString() {
        return "MongoIdempotencyStore[" + settings + "]";
    }

    /**
     * {@inheritDoc}
     *
     * <p>A document of its own in the records' collection, {@code {_id, attempts, expire_at}},
     * which the TTL index deletes like a record; see {@link AttemptCounts}.
     */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.checkCountAttempt(attemptsKey, retention);
        return call(
                "countAttempt",
                attemptsKey,
                c -> AttemptCounts.count(c.records(), attemptsKey, c.time().now(), retention));
    }

    /** One operation on the started store, its driver failures translated. */
    private <T> T call(String operation, String key, Function<Connection.Ready, T> body) {
        return DriverFailures.translated(operation, key, () -> body.apply(connection.ready()));
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
                    Instant server = c.serverClock().get();
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
