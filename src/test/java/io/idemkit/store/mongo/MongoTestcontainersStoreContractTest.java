package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * The store contract suite against a real MongoDB 7 single-member replica set, with {@code
 * majority} write concern, wherever Docker runs. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersStoreContractTest extends MongoStoreContract {

    @Container
    private static final MongoDBContainer MONGO = new MongoDBContainer("mongo:7").withReplicaSet();

    private static MongoClient client;

    @BeforeAll
    static void connect() {
        client = MongoClients.create(MONGO.getReplicaSetUrl());
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
