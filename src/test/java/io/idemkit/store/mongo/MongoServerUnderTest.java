package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
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
        MongoClientSettings.Builder settings =
                MongoClientSettings.builder()
                        .applyConnectionString(new ConnectionString(uri()))
                        .timeout(5, TimeUnit.SECONDS);
        for (CommandListener listener : listeners) {
            settings.addCommandListener(listener);
        }
        return MongoClients.create(settings.build());
    }

    /** Direct access to a collection of the test database, to plant and inspect documents. */
    MongoCollection<BsonDocument> raw(String collection) {
        return sharedClient().getDatabase(DATABASE).getCollection(collection, BsonDocument.class);
    }

    /** The server's own clock, as {@code $$NOW} and {@code $currentDate} read it. */
    Instant serverTime() {
        BsonDocument reply =
                sharedClient()
                        .getDatabase("admin")
                        .runCommand(
                                new BsonDocument("isMaster", new BsonInt32(1)), BsonDocument.class);
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
