package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The store contract suite against mongo-java-server in this JVM: what CI runs. */
class MongoJavaServerStoreContractTest extends MongoStoreContract {

    private static InProcessMongo mongo;

    @BeforeAll
    static void startServer() {
        mongo = InProcessMongo.start();
    }

    @AfterAll
    static void stopServer() {
        mongo.close();
    }

    @Override
    protected MongoClient client() {
        return mongo.sharedClient();
    }
}
