package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * A real MongoDB: the Testcontainers {@code mongo:7} single-member replica set (one container for
 * the whole test JVM, started on first use), or the server at {@code IDEMKIT_TEST_MONGO_URI}. Tests
 * on it run the pipeline path.
 */
final class RealMongo extends MongoServerUnderTest {

    static final String URI_VARIABLE = "IDEMKIT_TEST_MONGO_URI";

    private final String uri;
    private final MongoClient client;

    private RealMongo(String uri) {
        this.uri = uri;
        this.client = MongoClients.create(uri);
    }

    /** The Testcontainers replica set; call only where Docker is there. */
    static RealMongo container() {
        return Container.MONGO;
    }

    /** The server at {@code IDEMKIT_TEST_MONGO_URI}; call only where it is set. */
    static RealMongo atUri() {
        return AtUri.MONGO;
    }

    private static final class Container {
        static final RealMongo MONGO = start();

        private static RealMongo start() {
            MongoDBContainer container = new MongoDBContainer("mongo:7").withReplicaSet();
            container.start();
            return new RealMongo(container.getReplicaSetUrl());
        }
    }

    private static final class AtUri {
        static final RealMongo MONGO = new RealMongo(System.getenv(URI_VARIABLE));
    }

    @Override
    String uri() {
        return uri;
    }

    @Override
    MongoClient sharedClient() {
        return client;
    }
}
