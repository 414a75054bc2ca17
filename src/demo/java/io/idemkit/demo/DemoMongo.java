package io.idemkit.demo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The MongoDB the demo talks to: a real one at a URI, or, with no URI, an in-process MongoDB-wire
 * server (mongo-java-server) whose H2 file keeps its data across restarts. Both the idemkit store
 * and the demo's charges go through the real MongoDB driver either way.
 */
final class DemoMongo implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DemoMongo.class.getName());

    private final MongoClient client;
    // Both null when the demo uses a MongoDB at a URI.
    private final MongoServer embedded;
    private final EmbeddedServerLog embeddedLog;

    private DemoMongo(MongoClient client, MongoServer embedded, EmbeddedServerLog embeddedLog) {
        this.client = client;
        this.embedded = embedded;
        this.embeddedLog = embeddedLog;
    }

    /**
     * @param uri a MongoDB connection string
     * @return a client on that server, with no embedded server
     */
    static DemoMongo connect(String uri) {
        Objects.requireNonNull(uri, "uri");
        LOG.log(Level.INFO, "idemkit demo: using the MongoDB at idemkit.mongo.uri");
        return new DemoMongo(MongoClients.create(uri), null, null);
    }

    /**
     * Starts an in-process MongoDB-wire server on a free loopback port, backed by one H2 file.
     *
     * @param dataDirectory where the H2 file lives; created if absent
     * @return a client on that server, which owns the server
     */
    static DemoMongo embedded(Path dataDirectory) {
        Path file = dataDirectory.toAbsolutePath().normalize().resolve("payments.mv");
        try {
            Files.createDirectories(dataDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the demo's data directory", e);
        }
        EmbeddedServerLog log = EmbeddedServerLog.install();
        MongoServer server = new MongoServer(new H2Backend(file.toString()));
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        LOG.log(
                Level.INFO,
                "idemkit demo: embedded MongoDB-wire server on 127.0.0.1:"
                        + address.getPort()
                        + ", data in "
                        + file);
        return new DemoMongo(
                MongoClients.create("mongodb://127.0.0.1:" + address.getPort()), server, log);
    }

    /**
     * @return the client; owned by this object, which closes it
     */
    MongoClient client() {
        return client;
    }

    /**
     * @return whether the data lives in the embedded server
     */
    boolean isEmbedded() {
        return embedded != null;
    }

    /** Closes the client, then stops the embedded server, which writes its H2 file out. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            if (embedded != null) {
                try {
                    embedded.shutdown();
                } finally {
                    embeddedLog.close();
                }
            }
        }
    }
}
