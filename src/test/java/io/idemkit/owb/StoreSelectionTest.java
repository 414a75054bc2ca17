package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Clock;
import java.time.Duration;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store selection on OpenWebBeans (C8, C9), as {@code io.idemkit.cdi.MongoWiringTest} and
 * {@code CdiWiringTest} check it on Weld: the in-memory store, MongoDB (on the in-process
 * mongo-java-server) by URI or by the application's own client bean, and an application's own
 * {@code @Alternative} store over both. Each test deploys its own configuration; the MongoDB server
 * serves the whole class, and each test writes to a database of its own.
 */
class StoreSelectionTest {

    private static MongoServer server;
    private static String uri;

    private final OwbDeployment deployment = new OwbDeployment();

    @BeforeAll
    static void startMongo() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
    }

    @AfterAll
    static void stopMongo() {
        server.shutdownNow();
    }

    @AfterEach
    void undeploy() {
        deployment.close();
        AppClient.close();
    }

    private static long documents(String database, String collection) {
        try (MongoClient client = MongoClients.create(uri)) {
            return client.getDatabase(database).getCollection(collection).countDocuments();
        }
    }

    @Test
    void noStoreConfigured_usesTheInMemoryStore_andTheEngineCallsItNotItsProxy() {
        SeContainer owb = deployment.start();

        IdempotencyStore injected = owb.select(IdempotencyStore.class).get();
        IdempotencyStore used = owb.select(IdempotencyEngine.class).get().store();

        assertThat(injected.name()).isEqualTo("memory");
        assertThat(injected).isNotInstanceOf(InMemoryIdempotencyStore.class); // OWB's proxy
        assertThat(used).isInstanceOf(InMemoryIdempotencyStore.class);
    }

    @Test
    void mongoUri_producesTheMongoStoreOnTheConfiguredCollection() {
        deployment
                .set("idemkit.mongo.uri", uri)
                .set("idemkit.mongo.database", "by_uri")
                .set("idemkit.mongo.collection", "idem");

        SeContainer owb = deployment.start();
        IdempotencyStore store = owb.select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("mongodb");
        assertThat(owb.select(IdempotencyEngine.class).get().store())
                .isInstanceOf(MongoIdempotencyStore.class);
        assertThat(store.claim("k".repeat(64), "fp", 1, Duration.ofSeconds(30)).status())
                .isEqualTo(ClaimStatus.NEW);
        assertThat(documents("by_uri", "idem")).isEqualTo(1);
    }

    @Test
    void storeMemory_winsOverAConfiguredUri() {
        deployment.set("idemkit.mongo.uri", uri).set("idemkit.store", "memory");

        IdempotencyStore store = deployment.start().select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("memory");
    }

    @Test
    void storeMongoWithoutUriOrClient_failsTheDeployment() {
        deployment.set("idemkit.store", "mongo");

        assertThatThrownBy(deployment::start).isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        "idemkit.store=mongo needs idemkit.mongo.uri, or a MongoClient or"
                                + " MongoDatabase bean");
    }

    @Test
    void applicationsMongoClientBean_isUsedWithoutAUriAndLeftOpenAtShutdown() {
        AppClient.client = MongoClients.create(uri);
        deployment.set("idemkit.mongo.database", "by_bean");

        IdempotencyStore store =
                deployment.start(AppClient.class).select(IdempotencyStore.class).get();
        assertThat(store.name()).isEqualTo("mongodb");
        store.claim("c".repeat(64), "fp", 1, Duration.ofSeconds(30));
        deployment.close();

        // The application's client still works: the store did not close what it did not open.
        assertThat(
                        AppClient.client
                                .getDatabase("by_bean")
                                .getCollection("idemkit_records")
                                .find(new Document("_id", "c".repeat(64)))
                                .first())
                .isNotNull();
    }

    @Test
    void alternativeStoreBean_replacesTheDefaultStore_evenBesideAMongoUri() {
        deployment.set("idemkit.mongo.uri", uri).set("idemkit.mongo.database", "unused");

        SeContainer owb = deployment.start(CustomStore.class);

        assertThat(owb.select(IdempotencyStore.class).get().name()).isEqualTo("custom");
        assertThat(owb.select(IdempotencyEngine.class).get().store().getClass())
                .isEqualTo(CustomStore.class);
    }

    /** An application that already has a MongoClient, as a CDI bean. */
    @ApplicationScoped
    public static class AppClient {
        static MongoClient client;

        @Produces
        @ApplicationScoped
        MongoClient client() {
            return client;
        }

        static void close() {
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }

    /** An application's own store, declared as an enabled alternative. */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class CustomStore extends ForwardingStore {
        public CustomStore() {
            super(new InMemoryIdempotencyStore(Clock.systemUTC(), 10));
        }

        @Override
        public String name() {
            return "custom";
        }
    }
}
