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
}
