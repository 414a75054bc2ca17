package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How a deployment chooses and configures the MongoDB store (C8, C9), on mongo-java-server. */
class MongoWiringTest {

    private static MongoServer server;
    private static String uri;

    private final TestDeployment deployment = new TestDeployment();

    private static String startServer() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        uri = "mongodb://127.0.0.1:" + address.getPort();
        return uri;
    }

    @AfterEach
    void stop() {
        deployment.close();
        AppClient.close();
        if (server != null) {
            server.shutdownNow();
            server = null;
        }
    }

    private static long documents(String database, String collection) {
        try (MongoClient client = MongoClients.create(uri)) {
            return client.getDatabase(database).getCollection(collection).countDocuments();
        }
    }

    @Test
    void mongoUri_producesTheMongoStoreOnTheConfiguredCollection() {
        deployment
                .set("idemkit.mongo.uri", startServer())
                .set("idemkit.mongo.database", "shop")
                .set("idemkit.mongo.collection", "idem");

        IdempotencyStore store = deployment.start().select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("mongodb");
        assertThat(store.claim("k".repeat(64), "fp", 1, Duration.ofSeconds(30)).status())
                .isEqualTo(ClaimStatus.NEW);
        assertThat(documents("shop", "idem")).isEqualTo(1);
    }

    @Test
    void storeMemory_winsOverAConfiguredUri() {
        deployment.set("idemkit.mongo.uri", startServer()).set("idemkit.store", "memory");

        IdempotencyStore store = deployment.start().select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("memory");
    }

    @Test
    void storeMongoWithoutUriOrClient_failsTheDeployment() {
        deployment.set("idemkit.store", "mongo");

        assertThatThrownBy(deployment::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.store=mongo needs idemkit.mongo.uri, or a MongoClient or"
                                + " MongoDatabase bean");
    }

    @Test
    void storeMongoWithSeveralClientBeansAndNoUri_failsTheDeploymentAskingForTheUri() {
        deployment.set("idemkit.store", "mongo");

        assertThatThrownBy(() -> deployment.start(AppClient.class, SecondClient.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.store=mongo, but there are several MongoClient or MongoDatabase"
                                + " beans and no idemkit.mongo.uri: set it to choose.");
    }

    @Test
    void invalidMongoSettings_failTheDeploymentEachInTheHouseFormat() {
        deployment
                .set("idemkit.mongo.uri", "mongodb://user:secret@")
                .set("idemkit.mongo.timeout", "0s")
                .set("idemkit.mongo.collection", "system.users");

        assertThatThrownBy(deployment::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid idemkit.mongo.uri=")
                .hasMessageContaining("Invalid idemkit.mongo.timeout=0s: must be positive")
                .hasMessageContaining(
                        "Invalid idemkit.mongo.collection=system.users: must not start with"
                                + " system.")
                .hasMessageNotContaining("secret");
    }

    @Test
    void applicationsMongoClientBean_isUsedWithoutAUriAndLeftOpenAtShutdown() {
        AppClient.client = MongoClients.create(startServer());

        IdempotencyStore store =
                deployment.start(AppClient.class).select(IdempotencyStore.class).get();
        assertThat(store.name()).isEqualTo("mongodb");
        store.claim("c".repeat(64), "fp", 1, Duration.ofSeconds(30));
        deployment.close();

        // The application's client still works: the store did not close what it did not open.
        assertThat(
                        AppClient.client
                                .getDatabase("idemkit")
                                .getCollection("idemkit_records")
                                .find(new Document("_id", "c".repeat(64)))
                                .first())
                .isNotNull();
    }

    /** A second MongoClient bean, which makes the choice ambiguous. */
    @ApplicationScoped
    public static class SecondClient {
        @Produces
        @ApplicationScoped
        MongoClient client() {
            return AppClient.client;
        }
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
}
