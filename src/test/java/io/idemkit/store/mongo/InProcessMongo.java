package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.bson.BsonDocument;
import org.bson.BsonInt32;

/**
 * A mongo-java-server in this JVM, reached over a real socket by the real driver.
 *
 * <p>Its backend keeps the default clock on purpose: mongo-java-server 1.47 evaluates {@code $$NOW}
 * and {@code $currentDate} with {@code Instant.now()} whatever clock the backend is given, while
 * {@code isMaster.localTime} follows the backend's clock. A backend clock other than the system's
 * would make the server disagree with itself, so tests let real time pass instead.
 */
final class InProcessMongo implements AutoCloseable {

    static final String DATABASE = "idemkit_test";

    private final MongoServer server;
    private final InetSocketAddress address;
    private final MongoClient client;

    private InProcessMongo(MongoBackend backend, String host, int port) {
        this.server = new MongoServer(backend);
        server.bind(host, port);
        this.address = server.getLocalAddress();
        this.client = client();
    }

    /**
     * The memory-backed server the store tests share, started on first use and left running for the
     * test JVM. Tests keep apart by using a fresh collection each ({@link #freshSettings()}).
     */
    static InProcessMongo shared() {
        return Shared.SERVER;
    }

    private static final class Shared {
        static final InProcessMongo SERVER = start();
    }

    /** A memory-backed server on a free port. */
    static InProcessMongo start() {
        return new InProcessMongo(new MemoryBackend(), "127.0.0.1", 0);
    }

    /** A server with the given backend on the given port (0: a free one). */
    static InProcessMongo start(MongoBackend backend, int port) {
        return new InProcessMongo(backend, "127.0.0.1", port);
    }

    String uri() {
        return "mongodb://" + address.getHostString() + ":" + address.getPort();
    }

    int port() {
        return address.getPort();
    }

    /** A shared client, closed with the server. */
    MongoClient sharedClient() {
        return client;
    }

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
        return client.getDatabase(DATABASE).getCollection(collection, BsonDocument.class);
    }

    /** The server's own clock, as {@code $$NOW} and {@code $currentDate} read it. */
    Instant serverTime() {
        BsonDocument reply =
                client.getDatabase("admin")
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

    /** Settings for a store on a collection no other test uses. */
    static MongoStoreSettings freshSettings() {
        return MongoStoreSettings.defaults()
                .withDatabase(DATABASE)
                .withCollection("records_" + UUID.randomUUID().toString().replace("-", ""));
    }

    @Override
    public void close() {
        client.close();
        server.shutdownNow();
    }
}
