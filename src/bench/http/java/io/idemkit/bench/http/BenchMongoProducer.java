package io.idemkit.bench.http;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * A {@link MongoClient} bean on an in-process MongoDB-wire server (memory backend), started only
 * when idemkit asks for it, that is, unless {@code idemkit.store=memory}.
 */
@ApplicationScoped
public class BenchMongoProducer {

    /** The embedded server and the client on it; closed together. */
    record Embedded(MongoServer server, MongoClient client) {}

    @Produces
    @Singleton
    Embedded embedded() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        return new Embedded(
                server,
                MongoClients.create("mongodb://127.0.0.1:" + server.getLocalAddress().getPort()));
    }

    @Produces
    @Dependent
    MongoClient client(Embedded embedded) {
        return embedded.client();
    }

    void close(@Disposes Embedded embedded) {
        try {
            embedded.client().close();
        } finally {
            embedded.server().shutdownNow();
        }
    }
}
