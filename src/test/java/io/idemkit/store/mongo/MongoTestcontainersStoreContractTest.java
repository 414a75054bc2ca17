package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * The store contract suite against a real MongoDB 7 single-member replica set, with {@code
 * majority} write concern, wherever Docker runs. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
@AddLifecycleHook(MongoTestcontainersStoreContractTest.DockerRequired.class)
class MongoTestcontainersStoreContractTest extends MongoStoreContract {

    @Container
    private static final MongoDBContainer MONGO = new MongoDBContainer("mongo:7").withReplicaSet();

    private static MongoClient client;

    // JUnit's Testcontainers extension starts the container for the Jupiter tests; jqwik, which
    // runs the contract's property, knows nothing of it, so connect() starts it too (a no-op once
    // started) and jqwik skips the class itself without Docker.
    @BeforeAll
    @BeforeContainer
    static void connect() {
        MONGO.start();
        client = MongoClients.create(MONGO.getReplicaSetUrl());
    }

    @AfterAll
    @AfterContainer
    static void disconnect() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /** jqwik's counterpart of {@code disabledWithoutDocker}. */
    static final class DockerRequired implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            return DockerClientFactory.instance().isDockerAvailable()
                    ? SkipResult.doNotSkip()
                    : SkipResult.skip("Docker is not available");
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

    @Override
    protected boolean serverRunsPipelines() {
        return true;
    }
}
