package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.connection.ClusterDescription;
import io.idemkit.IdempotencyStorageException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.bson.BsonDocument;

/**
 * The store's connection lifecycle: the client (created and owned by the store from a URI, or an
 * application's, which the store never closes), the database with the settings the store pins, the
 * collection, its shard key and its TTL index, the server clock, the choice of {@link UpdateForm},
 * the watch for a new primary, and closing. Nothing connects before first use; a start that fails
 * (the server cannot be reached, or answered the probe with anything but a refusal) is retried on
 * the next use, and nothing it found is kept. Thread-safe.
 *
 * <p>What the store pins, whatever the application's client says (C9): the primary read preference
 * (every decision must see the latest write); the {@code local} read concern, so that the read
 * after a lost race sees the winner's claim, which a {@code majority} read (a client's, or a
 * cluster-wide default) may not see yet; an acknowledged write concern in place of an
 * unacknowledged one ({@code w:0}), under which no fenced write could tell whether it matched; and
 * {@link MongoStoreSettings#timeout()} on each operation.
 */
final class Connection {

    private static final System.Logger LOG = System.getLogger(Connection.class.getName());
    private static final String CONFIG = "config";

    /** Logged once when the client's write concern is unacknowledged. */
    static final String UNACKNOWLEDGED =
            "idemkit: the MongoDB client's write concern is unacknowledged (w:0), under which"
                    + " no claim, complete or renew could tell whether it matched. The store"
                    + " writes its own collection with an acknowledged write concern instead"
                    + " (w:1, or the cluster's default). Set idemkit.mongo.write-concern=majority"
                    + " on a replica set.";

    /** Appended to the INFO line of a store that reaches the cluster through mongos. */
    static final String THROUGH_ROUTER =
            ". It reaches a sharded cluster through mongos: $$NOW is the clock of whichever"
                    + " mongos routes each command, the TTL monitor deletes on the shard"
                    + " primary's clock, so every mongos and mongod clock must be synchronized"
                    + " (skew well under a third of the lease and under idemkit.mongo.lease-grace);"
                    + " there is no primary to follow, and the clock estimate is refreshed every "
                    + ServerTimeEstimate.REFRESH_EVERY.toSeconds()
                    + " s";

    /**
     * What a started store works with.
     *
     * @param records the collection
     * @param time the estimated server time
     * @param form how writes stamp their dates, probed once
     * @param serverClock asks the server for its clock (one round trip)
     */
    record Ready(
            MongoCollection<BsonDocument> records,
            ServerTimeEstimate time,
            UpdateForm form,
            ServerClockCommand serverClock) {}

    private final MongoStoreSettings settings;
    private final Clock clock;
    private final Supplier<MongoDatabase> database;

    /** The cluster's {@code config} database, for the shard key; {@code null} where unknown. */
    private final Supplier<MongoDatabase> configDatabase;

    private final ReentrantLock starting = new ReentrantLock();
    private final PrimaryWatch primaryWatch = new PrimaryWatch(this::onNewPrimary);

    /** An application client's cluster, polled on each use; {@code null} where none is known. */
    private final Supplier<ClusterDescription> cluster;

    private volatile Ready ready;
    private volatile boolean closed;
    private volatile boolean stampsWithServerClock;
    private volatile boolean throughRouter;

    /** Guarded by {@link #starting}; only set when this store created the client. */
    private MongoClient ownClient;

    private MongoDatabase resolvedDatabase;

    private ServerClockCommand clockCommand;

    private Connection(
            MongoStoreSettings settings,
            Clock clock,
            Supplier<MongoDatabase> database,
            Supplier<MongoDatabase> configDatabase,
            Supplier<ClusterDescription> cluster) {
        this.settings = settings;
        this.clock = clock;
        this.database = database != null ? database : this::ownDatabase;
        this.configDatabase =
                database != null ? configDatabase : () -> ownClient.getDatabase(CONFIG);
        this.cluster = cluster;
    }

    /** A client of its own, created from {@link MongoStoreSettings#uri()} on first use. */
    static Connection ownClient(MongoStoreSettings settings, Clock clock) {
        // The store's own client reports to primaryWatch as a listener.
        return new Connection(settings, clock, null, null, null);
    }

    /** An application's client, never closed here. */
    static Connection onClient(MongoClient client, MongoStoreSettings settings, Clock clock) {
        return new Connection(
                settings,
                clock,
                () -> client.getDatabase(settings.database()),
                () -> client.getDatabase(CONFIG),
                client::getClusterDescription);
    }

    /** An application's database, whose client is never closed here. */
    static Connection onDatabase(MongoDatabase database, MongoStoreSettings settings, Clock clock) {
        // A MongoDatabase does not tell its client: the shard key cannot be looked up.
        return new Connection(settings, clock, () -> database, null, null);
    }

    /**
     * The started store, starting it on first use.
     *
     * @throws IdempotencyStorageException if the store is closed
     * @throws RuntimeException what the driver throws when the server cannot be reached
     */
    Ready ready() {
        if (cluster != null && !throughRouter) {
            primaryWatch.observe(cluster.get());
        }
        Ready r = ready;
        if (r != null) {
            return r;
        }
        starting.lock();
        try {
            if (closed) {
                throw new IdempotencyStorageException("MongoDB store is closed");
            }
            if (ready == null) {
                ready = start();
            }
            return ready;
        } finally {
            starting.unlock();
        }
    }

    /** Whether the form probed at start stamps with the server's clock; {@code false} before. */
    boolean stampsWithServerClock() {
        return stampsWithServerClock;
    }

    /**
     * Closes the client this store created, if any, and stops the driver's buffer pool pruner
     * ({@link DriverBufferPool}); later uses fail. Idempotent.
     */
    void close() {
        starting.lock();
        try {
            closed = true;
            ready = null;
            if (ownClient != null) {
                ownClient.close();
                ownClient = null;
            }
        } finally {
            starting.unlock();
        }
        DriverBufferPool.stopPruner();
    }

    /** Runs under {@link #starting}. Raises when the server cannot be reached; retried next use. */
    private Ready start() {
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
            } else if (!db.getWriteConcern().isAcknowledged()) {
                LOG.log(Level.WARNING, UNACKNOWLEDGED);
                db = db.withWriteConcern(WriteConcern.ACKNOWLEDGED);
            }
            // Not majority: the read after a lost race must see the winner's claim at once.
            resolvedDatabase = db.withReadConcern(ReadConcern.LOCAL);
            MongoDatabase bound = resolvedDatabase;
            clockCommand =
                    new ServerClockCommand(
                            command -> bound.runCommand(command, BsonDocument.class));
        }
        MongoDatabase db = resolvedDatabase;
        MongoCollection<BsonDocument> records =
                db.getCollection(settings.collection(), BsonDocument.class);
        ServerTimeEstimate time = new ServerTimeEstimate(clock, clockCommand);
        time.now();
        ServerKind kind = clockCommand.kind();
        if (kind.router() && configDatabase != null) {
            ShardKeyCheck.check(
                    configDatabase
                            .get()
                            .withTimeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)
                            .withReadPreference(ReadPreference.primary()),
                    records.getNamespace());
        }
        TtlIndex.ensure(records);
        PipelineProbe.Answer answer = PipelineProbe.ask(records, kind.maxWireVersion());
        UpdateForm form =
                UpdateForm.of(answer.runsPipelines(), records, time, settings.leaseGrace());
        LOG.log(
                Level.INFO,
                () ->
                        "idemkit: MongoDB store on "
                                + records.getNamespace()
                                + " takes "
                                + form
                                + ", because "
                                + answer.why()
                                + (kind.router() ? THROUGH_ROUTER : ""));
        throughRouter = kind.router();
        stampsWithServerClock = form.stampsWithServerClock();
        return new Ready(records, time, form, clockCommand);
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
        Ready r = ready;
        if (r != null) {
            r.time().primaryChanged();
        }
    }
}
