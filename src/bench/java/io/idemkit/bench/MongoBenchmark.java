package io.idemkit.bench;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idemkit.IdempotencyEvent;
import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.FinishOutcome;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.core.hash.Fingerprint;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import io.idemkit.store.mongo.MongoStoreSettings;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The MongoDB store through the real driver, against a mongo-java-server (memory backend) in this
 * JVM on loopback, compared with the raw driver's {@code insertOne} on the same server. The thread
 * count is set by the runner ({@link BenchMain} measures 1 and 8).
 *
 * <ul>
 *   <li>{@link #mongoFresh}: through the engine, {@code admit} of a new key (the store's claim, one
 *       {@code findOneAndUpdate} upsert) and {@code finish} of a 201 with a 1 KiB body (the store's
 *       complete, one {@code updateOne}): two round trips;
 *   <li>{@link #mongoReplay}: through the engine, {@code admit} of a completed key: the store's
 *       claim returns {@code ALREADY_COMPLETED} in one round trip;
 *   <li>{@link #rawInsertOne}: the driver's {@code insertOne} of a document shaped and sized like a
 *       completed record (about 1.4 KiB), into another collection: one round trip, the yardstick.
 * </ul>
 *
 * <p>mongo-java-server serves a filter from the {@code _id} index only when the filter is {@code
 * _id} alone, so it runs complete's fenced filter as a scan of the whole collection; MongoDB serves
 * it from the {@code _id} index. Left to grow, the fresh path's collection would make its figure a
 * measure of how long the run has lasted (in one trial it rose from 1.5 to 4.8 ms per operation
 * over 18 s). So {@link FreshKeys} deletes each fresh record after its invocation, outside the
 * timed region, and the fresh path has a collection of its own, without the replay keys: complete
 * then scans at most one record per thread.
 *
 * <p>The request is not hashed here: the fingerprint is computed once, and each operation only
 * derives its effective key from a short raw key (one SHA-256 of a few dozen bytes), so that the
 * ratios compare store work with store work. Hashing is {@link EngineBenchmark}'s subject.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MongoBenchmark {

    /**
     * Completed keys the replay path cycles through; a power of two. Few on purpose:
     * mongo-java-server uses its {@code _id} index only for a filter on {@code _id} alone, so the
     * claim's {@code {_id, lease_until: {$gt: ...}}} scans the whole collection there, while a real
     * MongoDB serves it from the {@code _id} index. A large collection would measure that scan, not
     * the store; the fresh path deletes its records for the same reason.
     */
    private static final int REPLAY_KEYS = 16;

    private static final String DATABASE = "idemkit_bench";
    private static final String FRESH_COLLECTION = "fresh_records";
    private static final String REPLAY_COLLECTION = "replay_records";
    private static final String RAW_COLLECTION = "raw_insert";

    private static final OperationPolicy POLICY =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(5),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private static final String FINGERPRINT =
            Fingerprint.forHttp(
                    SampleExchange.METHOD,
                    SampleExchange.PATH,
                    SampleExchange.QUERY,
                    SampleExchange.REQUEST_BODY,
                    SampleExchange.CONTENT_TYPE);

    private final Clock clock = Clock.systemUTC();
    private final StoredResult created = SampleExchange.CREATED;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private MongoServer server;
    private MongoClient client;
    private MongoIdempotencyStore freshStore;
    private IdempotencyEngine freshEngine;
    private MongoIdempotencyStore replayStore;
    private IdempotencyEngine replayEngine;
    private MongoCollection<BsonDocument> raw;

    /**
     * The last event, kept so that the event the engine emits is really built, as it is for any
     * real observer.
     */
    private volatile IdempotencyEvent lastEvent;

    /** Starts the server and connects. */
    @Setup(Level.Trial)
    public void start() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        client =
                MongoClients.create(
                        MongoClientSettings.builder()
                                .applyConnectionString(
                                        new ConnectionString(
                                                "mongodb://"
                                                        + address.getHostString()
                                                        + ":"
                                                        + address.getPort()))
                                .timeout(10, TimeUnit.SECONDS)
                                .build());
        freshStore = store(FRESH_COLLECTION);
        freshEngine = engine(freshStore);
        replayStore = store(REPLAY_COLLECTION);
        replayEngine = engine(replayStore);
        raw = client.getDatabase(DATABASE).getCollection(RAW_COLLECTION, BsonDocument.class);

        String prefix = UUID.randomUUID() + "-";
        // The first use of a store lists its TTL index and measures the server clock; do that,
        // and open the raw collection, before the clock starts.
        ((Admission.Proceed) freshEngine.admit(operation(prefix + "warm"))).execution().release();
        raw.insertOne(rawDocument(prefix + "warm"));
    }

    private MongoIdempotencyStore store(String collection) {
        return new MongoIdempotencyStore(
                client,
                MongoStoreSettings.defaults().withDatabase(DATABASE).withCollection(collection),
                clock);
    }

    private IdempotencyEngine engine(MongoIdempotencyStore store) {
        return new IdempotencyEngine(store, event -> lastEvent = event, heartbeat, Ticker.system());
    }

    /** Closes the engines, the stores, the client and the server. */
    @TearDown(Level.Trial)
    public void stop() {
        freshEngine.close();
        replayEngine.close();
        freshStore.close();
        replayStore.close();
        client.close();
        server.shutdownNow();
        if (lastEvent == null) {
            throw new IllegalStateException("the engine emitted no event");
        }
    }

    /** The completed keys of the replay path, made only for the trials that use them. */
    @State(Scope.Benchmark)
    public static class Completed {
        private final String[] keys = new String[REPLAY_KEYS];

        /**
         * Claims and completes every key.
         *
         * @param bench the server and engines
         */
        @Setup(Level.Trial)
        public void complete(MongoBenchmark bench) {
            String prefix = UUID.randomUUID() + "-replay-";
            for (int i = 0; i < REPLAY_KEYS; i++) {
                keys[i] = prefix + i;
                Admission admission = bench.replayEngine.admit(operation(keys[i]));
                FinishOutcome outcome =
                        ((Admission.Proceed) admission).execution().finish(bench.created);
                if (outcome != FinishOutcome.STORED) {
                    throw new IllegalStateException("setup could not complete a key: " + outcome);
                }
            }
        }
    }

    /** Each benchmark thread's own keys. */
    @State(Scope.Thread)
    public static class Keys {
        private final String prefix = UUID.randomUUID() + "-";
        private long counter;
        private int replayIndex = ThreadLocalRandom.current().nextInt(REPLAY_KEYS);

        String next() {
            return prefix + counter++;
        }
    }

    /**
     * Each thread's fresh keys; deletes the record of each after its invocation, outside the timed
     * region (see the class comment).
     */
    @State(Scope.Thread)
    public static class FreshKeys {
        private final String prefix = UUID.randomUUID() + "-";
        private long counter;
        private MongoIdempotencyStore store;
        private String written;

        Operation next(MongoIdempotencyStore in) {
            store = in;
            Operation operation = operation(prefix + counter++);
            written = operation.effectiveKey();
            return operation;
        }

        /** Deletes the record the invocation wrote. */
        @TearDown(Level.Invocation)
        public void forget() {
            if (written != null) {
                store.delete(written);
                written = null;
            }
        }
    }

    /**
     * @param keys this thread's keys
     * @return the outcome, always {@link FinishOutcome#STORED}
     */
    @Benchmark
    public FinishOutcome mongoFresh(FreshKeys keys) {
        Admission admission = freshEngine.admit(keys.next(freshStore));
        // The cast fails the run loudly should the claim not be won.
        FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
        if (outcome != FinishOutcome.STORED) {
            throw new IllegalStateException("a fresh key was not stored: " + outcome);
        }
        return outcome;
    }

    /**
     * @param completed the completed keys
     * @param keys this thread's keys
     * @return the replayed result
     */
    @Benchmark
    public StoredResult mongoReplay(Completed completed, Keys keys) {
        String key = completed.keys[keys.replayIndex++ & (REPLAY_KEYS - 1)];
        return ((Admission.Replay) replayEngine.admit(operation(key))).result();
    }

    /**
     * @param keys this thread's keys
     * @return the insert's result
     */
    @Benchmark
    public Object rawInsertOne(Keys keys) {
        return raw.insertOne(rawDocument(keys.next()));
    }

    private static Operation operation(String key) {
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        return new Operation(effectiveKey, FINGERPRINT, Fingerprint.VERSION, POLICY, "http");
    }

    /** A document with the fields and sizes of a completed record, under a fresh id. */
    private BsonDocument rawDocument(String key) {
        String id =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        long now = clock.millis();
        BsonArray headers = new BsonArray();
        created.headers()
                .forEach(
                        h ->
                                headers.add(
                                        new BsonDocument("name", new BsonString(h.name()))
                                                .append("value", new BsonString(h.value()))));
        return new BsonDocument("_id", new BsonString(id))
                .append("state", new BsonString("COMPLETED"))
                .append("fingerprint", new BsonString(FINGERPRINT))
                .append("fingerprint_version", new BsonInt32(Fingerprint.VERSION))
                .append("claim_token", new BsonString(ClaimToken.random().value()))
                .append("claimed_at", new BsonDateTime(now))
                .append("lease_until", new BsonDateTime(now + 86_400_000L))
                .append("expire_at", new BsonDateTime(now + 86_460_000L))
                .append("completed_at", new BsonDateTime(now))
                .append("response_status", new BsonInt32(created.status()))
                .append("response_headers", headers)
                .append("response_body", new BsonBinary(created.body()))
                .append("response_body_length", new BsonInt32(created.bodyLength()));
    }
}
