package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;

/**
 * The store contract suite (C3) on a real MongoDB of the Testcontainers matrix ({@link RealMongo}),
 * with {@code majority} write concern. Every subclass checks, with the suite's first test, that the
 * probe chose the pipeline path. Each subclass is skipped without Docker.
 */
abstract class RealMongoStoreContract extends MongoStoreContract {

    /** The server under test. */
    abstract RealMongo server();

    @Override
    protected MongoClient client() {
        return server().sharedClient();
    }

    @Override
    protected MongoStoreSettings baseSettings() {
        return MongoStoreSettings.defaults().withWriteConcern("majority");
    }

    @Override
    protected boolean serverRunsPipelines() {
        return true;
    }

    @Override
    protected void prepareCollection(String collection) {
        server().prepare(collection);
    }
}
