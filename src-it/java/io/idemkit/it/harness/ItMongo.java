package io.idemkit.it.harness;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/**
 * The in-process MongoDB-wire server the MongoDB ITs run beside Liberty: mongo-java-server with its
 * memory backend, on loopback, in the test JVM, so that it outlives every Liberty process.
 */
public final class ItMongo {

    private ItMongo() {}

    /**
     * @return a server on a port of {@link TestPorts}
     */
    public static MongoServer start() {
        return TestPorts.start("the MongoDB-wire server", ItMongo::start);
    }

    /**
     * @param port the port, for a test that stops the server and starts it again where the
     *     application expects it; 0 for any free one
     * @return the server, listening
     */
    public static MongoServer start(int port) {
        MongoServer server = new MongoServer(new MemoryBackend());
        // One worker thread, so that a reply is never encoded from a document that another
        // worker's command is changing (mongo-java-server 1.47; see the unit tests'
        // InProcessMongo).
        server.bind(new InetSocketAddress("127.0.0.1", port), 1, 1);
        return server;
    }

    /**
     * @param server a started server
     * @return its connection string
     */
    public static String uri(MongoServer server) {
        return "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
    }
}
