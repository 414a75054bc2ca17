package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The store contract suite against the MongoDB at {@code IDEMKIT_TEST_MONGO_URI} (any version from
 * 4.4, standalone, replica set or sharded), with {@code majority} write concern. Skipped when the
 * variable is not set. Each test uses, then drops, its own collection in database {@code
 * idemkit_test}.
 */
@EnabledIfEnvironmentVariable(named = MongoUriStoreContractTest.VARIABLE, matches = ".+")
class MongoUriStoreContractTest extends MongoStoreContract {

    static final String VARIABLE = "IDEMKIT_TEST_MONGO_URI";

    private static MongoClient client;

    @BeforeAll
    static void connect() {
        client = MongoClients.create(System.getenv(VARIABLE));
    }

    @AfterAll
    static void disconnect() {
        if (client != null) {
            client.close();
        }
    }

    @Override
    protected MongoClient client() {
        return client;
    }

    @Override
    protected MongoStoreSettings baseSettings() {
        return MongoStoreSettings.defaults().withWriteConcern("majority");
    }
}
