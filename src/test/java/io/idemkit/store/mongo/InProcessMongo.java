package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import java.util.UUID;

/**
 * A mongo-java-server in this JVM, reached over a real socket by the real driver.
 *
 * <p>Its backend keeps the default clock on purpose: mongo-java-server 1.47 evaluates {@code $$NOW}
 * and {@code $currentDate} with {@code Instant.now()} whatever clock the backend is given, while
 * {@code isMaster.localTime} follows the backend's clock. A backend clock other than the system's
 * would make the server disagree with itself, so tests let real time pass instead.
 */
final class InProcessMongo extends MongoServerUnderTest implements AutoCloseable {

    private final MongoServer server;
    private final InetSocketAddress address;
    private final MongoClient client;

    private InProcessMongo(MongoBackend backend, String host, int port) {
        this.server = new MongoServer(backend);
        // One boss and one worker thread: mongo-java-server 1.47 encodes a findAndModify's reply
        // from the stored document itself, which a command on another worker may be changing at
        // that moment; the encoder then fails (ConcurrentModificationException), the server closes
        // the connection, and the store sees "Prematurely reached end of stream", an outage no
        // real server would cause. With one worker, commands are handled in turn, as the
        // emulator's per-collection lock already orders their effects; the clients still race.
        server.bind(new InetSocketAddress(host, port), 1, 1);
        this.address = server.getLocalAddress();
        this.client = MongoClients.create(uri());
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

    @Override
    String uri() {
        return "mongodb://" + address.getHostString() + ":" + address.getPort();
    }

    int port() {
        return address.getPort();
    }

    @Override
    MongoClient sharedClient() {
        return client;
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
