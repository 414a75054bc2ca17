package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.ServerApi;
import com.mongodb.ServerApiVersion;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.function.Consumer;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * A real MongoDB, where the store takes the pipeline path: the server at {@code
 * IDEMKIT_TEST_MONGO_URI}, or one of the Testcontainers deployments of the matrix, each started on
 * first use and left running for the test JVM (only where Docker is there):
 *
 * <ul>
 *   <li>{@link #container()}: {@code mongo:7}, a single-member replica set;
 *   <li>{@link #replicaSet44()}: {@code mongo:4.4}, the oldest supported version;
 *   <li>{@link #replicaSet80()}: {@code mongo:8.0}, started with test commands enabled (for the
 *       {@code configureFailPoint} tests) and a TTL monitor that runs every second;
 *   <li>{@link #strictStableApi()}: the same server, reached by clients that declare the Stable API
 *       v1 with {@code strict} and {@code deprecationErrors};
 *   <li>{@link #sharded()}: a sharded cluster, two {@code mongos} in front of one replica-set shard
 *       ({@link ShardedCluster}); every test collection is sharded on {@code _id}.
 * </ul>
 */
final class RealMongo extends MongoServerUnderTest {

    static final String URI_VARIABLE = "IDEMKIT_TEST_MONGO_URI";

    private final String uri;
    private final Consumer<MongoClientSettings.Builder> options;
    private final boolean sharded;
    private final MongoClient client;

    private RealMongo(String uri, Consumer<MongoClientSettings.Builder> options, boolean sharded) {
        this.uri = uri;
        this.options = options;
        this.sharded = sharded;
        MongoClientSettings.Builder settings =
                MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri));
        options.accept(settings);
        this.client = MongoClients.create(settings.build());
    }

    private static RealMongo plain(String uri) {
        return new RealMongo(uri, settings -> {}, false);
    }

    /** The Testcontainers {@code mongo:7} replica set; call only where Docker is there. */
    static RealMongo container() {
        return Rs7.MONGO;
    }

    /** The Testcontainers {@code mongo:4.4} replica set; call only where Docker is there. */
    static RealMongo replicaSet44() {
        return Rs44.MONGO;
    }

    /**
     * The Testcontainers {@code mongo:8.0} replica set with test commands enabled; call only where
     * Docker is there.
     */
    static RealMongo replicaSet80() {
        return Rs80.MONGO;
    }

    /** {@link #replicaSet80()} through strict Stable API v1 clients. */
    static RealMongo strictStableApi() {
        return StableApi.MONGO;
    }

    /** The Testcontainers sharded cluster behind two routers; call only where Docker is there. */
    static RealMongo sharded() {
        return Sharded.MONGO;
    }

    /** The server at {@code IDEMKIT_TEST_MONGO_URI}; call only where it is set. */
    static RealMongo atUri() {
        return AtUri.MONGO;
    }

    private static final class Rs7 {
        static final RealMongo MONGO =
                plain(replicaSet(new MongoDBContainer("mongo:7").withReplicaSet()));
    }

    private static final class Rs44 {
        static final RealMongo MONGO =
                plain(replicaSet(new MongoDBContainer("mongo:4.4").withReplicaSet()));
    }

    private static final class Rs80 {
        static final String URI =
                replicaSet(
                        new MongoDBContainer("mongo:8.0")
                                .withReplicaSet()
                                // withCommand replaces the command withReplicaSet set.
                                .withCommand(
                                        "--replSet",
                                        "docker-rs",
                                        "--setParameter",
                                        "enableTestCommands=1",
                                        "--setParameter",
                                        "ttlMonitorSleepSecs=1"));
        static final RealMongo MONGO = plain(URI);
    }

    private static final class StableApi {
        static final RealMongo MONGO =
                new RealMongo(
                        Rs80.URI,
                        settings ->
                                settings.serverApi(
                                        ServerApi.builder()
                                                .version(ServerApiVersion.V1)
                                                .strict(true)
                                                .deprecationErrors(true)
                                                .build()),
                        false);
    }

    private static final class Sharded {
        static final RealMongo MONGO = new RealMongo(ShardedCluster.start(), settings -> {}, true);
    }

    private static final class AtUri {
        static final RealMongo MONGO = plain(System.getenv(URI_VARIABLE));
    }

    /** Starts a container set up as a replica set, and returns its connection string. */
    private static String replicaSet(MongoDBContainer container) {
        container.start();
        return container.getReplicaSetUrl();
    }

    @Override
    String uri() {
        return uri;
    }

    @Override
    MongoClient sharedClient() {
        return client;
    }

    @Override
    void configure(MongoClientSettings.Builder settings) {
        options.accept(settings);
    }

    /** On the sharded cluster, shards the new collection on {@code _id} (hashed). */
    @Override
    void prepare(String collection) {
        if (sharded) {
            shard(collection, new BsonDocument("_id", new BsonString("hashed")));
        }
    }

    /** Shards a collection of the test database on the given key (the sharded cluster only). */
    void shard(String collection, BsonDocument key) {
        client.getDatabase("admin")
                .runCommand(
                        new BsonDocument(
                                        "shardCollection",
                                        new BsonString(DATABASE + "." + collection))
                                .append("key", key));
    }

    /** jqwik's counterpart of {@link RequiresDocker}, by the same rule. */
    static final class DockerRequired implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            String reason = RequiresDocker.Condition.skipReason();
            return reason == null ? SkipResult.doNotSkip() : SkipResult.skip(reason);
        }
    }
}
