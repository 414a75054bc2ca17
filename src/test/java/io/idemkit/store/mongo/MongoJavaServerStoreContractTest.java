package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;

/** The store contract suite against mongo-java-server in this JVM: what CI runs. */
class MongoJavaServerStoreContractTest extends MongoStoreContract {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    @Override
    protected MongoClient client() {
        return mongo.sharedClient();
    }

    @Override
    protected boolean serverRunsPipelines() {
        return false;
    }

    /**
     * mongo-java-server runs a {@code findAndModify} as a find and then an update, without a lock
     * (its {@code AbstractMongoCollection.findAndModify}), so racing {@code $inc}s can return the
     * same count. MongoDB applies one {@code findAndModify} to its document atomically; the
     * Testcontainers and URI variants of this suite run the race on a real server.
     */
    @Override
    protected boolean countsAtomicallyUnderRaces() {
        return false;
    }
}
