package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.bson.BsonDocument;
import org.bson.BsonInt32;

/**
 * A MongoDB-wire server the store tests run against, reached by the real driver: mongo-java-server
 * in this JVM ({@link InProcessMongo}), or a real MongoDB ({@link RealMongo}: Testcontainers, or
 * {@code IDEMKIT_TEST_MONGO_URI}).
 */
abstract class MongoServerUnderTest {

    static final String DATABASE = "idemkit_test";

    /** The connection string. */
    abstract String uri();

    /** A shared client, closed with the server. */
    abstract MongoClient sharedClient();

    /** A new client whose commands the listeners see; the caller closes it. */
    MongoClient client(CommandListener... listeners) {
        return client(
                settings -> {
                    for (CommandListener listener : listeners) {
                        settings.addCommandListener(listener);
                    }
                });
    }

    /** A new client with options of the test's own on top of the server's; the caller closes it. */
    MongoClient client(Consumer<MongoClientSettings.Builder> options) {
        MongoClientSettings.Builder settings =
                MongoClientSettings.builder()
                        .applyConnectionString(new ConnectionString(uri()))
                        .timeout(5, TimeUnit.SECONDS);
        configure(settings);
        options.accept(settings);
        return MongoClients.create(settings.build());
    }

    /** What every client of this server needs (a Stable API, for example); nothing by default. */
    void configure(MongoClientSettings.Builder settings) {}

    /**
     * Settings for a store on a collection no other test uses, prepared as this server needs (a
     * sharded cluster shards it on {@code _id}).
     */
    MongoStoreSettings preparedSettings() {
        MongoStoreSettings settings = InProcessMongo.freshSettings();
        prepare(settings.collection());
        return settings;
    }

    /** Prepares a new collection of the test database; nothing by default. */
    void prepare(String collection) {}

    /** Direct access to a collection of the test database, to plant and inspect documents. */
    MongoCollection<BsonDocument> raw(String collection) {
        return sharedClient().getDatabase(DATABASE).getCollection(collection, BsonDocument.class);
    }

    /** The server's own clock, as {@code $$NOW} and {@code $currentDate} read it. */
    Instant serverTime() {
        return serverTime(sharedClient());
    }

    /**
     * The clock of the server a client reaches: {@code isMaster} (mongo-java-server has no {@code
     * hello}), or {@code hello} where a strict Stable API client may not send {@code isMaster}.
     */
    static Instant serverTime(MongoClient client) {
        BsonDocument reply;
        try {
            reply =
                    client.getDatabase("admin")
                            .runCommand(
                                    new BsonDocument("isMaster", new BsonInt32(1)),
                                    BsonDocument.class);
        } catch (MongoCommandException e) {
            reply =
                    client.getDatabase("admin")
                            .runCommand(
                                    new BsonDocument("hello", new BsonInt32(1)),
                                    BsonDocument.class);
        }
        return Instant.ofEpochMilli(reply.getDateTime("localTime").getValue());
    }

    /** Lets real time pass until the server's clock is past {@code instant}. */
    void waitUntilPast(Instant instant) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> serverTime().isAfter(instant.plusMillis(5)));
    }
}
