package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.deployment.wiring.RoundTrip;
import io.idemkit.it.deployment.wiring.WiringApplication;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.spi.ClaimStatus;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URL;
import java.util.UUID;
import org.bson.Document;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On each runtime of the suite, an application whose {@code microprofile-config.properties} sets
 * {@code idemkit.mongo.uri} gets the MongoDB store (C8, C9): the claim the application makes
 * through the injected {@code IdempotencyStore} lands as a document in that MongoDB, a real
 * MongoDB-wire server run by this test.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MongoStoreWiringIT {

    private static final String DATABASE = "it_wiring";
    private static final String COLLECTION = "records";

    // Started when the class loads: Arquillian deploys, and the deployment names the port,
    // before any @BeforeAll method runs.
    private static final MongoServer MONGO = ItMongo.start();

    private static String uri() {
        return ItMongo.uri(MONGO);
    }

    @Deployment(testable = false)
    static WebArchive application() {
        String config =
                "idemkit.mongo.uri="
                        + uri()
                        + "\nidemkit.mongo.database="
                        + DATABASE
                        + "\nidemkit.mongo.collection="
                        + COLLECTION
                        + "\nidemkit.scope-mode=single-tenant\n";
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "mongo-wiring.war")
                        .addPackage(WiringApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(config),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stopMongo() {
        MONGO.shutdownNow();
    }

    @ArquillianResource private URL base;

    @Test
    void configuredMongoUri_givesTheApplicationTheMongoStoreOnThatServer() throws Exception {
        assertRoundTripLandsIn(base, uri(), DATABASE, COLLECTION);
    }

    /**
     * The application's claim, completion and replay through its injected {@code IdempotencyStore}
     * ({@code api/store/round-trip}), then the document the MongoDB store wrote, read directly.
     *
     * @param base the application
     * @param uri the MongoDB-wire server the store is to write to
     * @param database its database
     * @param collection its collection
     */
    static void assertRoundTripLandsIn(URL base, String uri, String database, String collection)
            throws Exception {
        String key = UUID.randomUUID().toString();

        RoundTrip trip;
        try (Client client = ClientBuilder.newClient();
                Response response =
                        client.target(base.toURI().resolve("api/store/round-trip"))
                                .queryParam("key", key)
                                .request(MediaType.APPLICATION_JSON)
                                .post(Entity.text("stored in mongo"))) {
            assertThat(response.getStatus()).isEqualTo(200);
            trip = response.readEntity(RoundTrip.class);
        }

        assertThat(trip.storeName()).isEqualTo("mongodb");
        assertThat(trip.firstClaim()).isEqualTo(ClaimStatus.NEW);
        assertThat(trip.completed()).isTrue();
        assertThat(trip.secondClaim()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(trip.replayedBody()).isEqualTo("stored in mongo");
        try (MongoClient direct = MongoClients.create(uri)) {
            Document stored =
                    direct.getDatabase(database)
                            .getCollection(collection)
                            .find(new Document("_id", key))
                            .first();
            assertThat(stored).isNotNull();
            assertThat(stored.getString("state")).isEqualTo("COMPLETED");
            assertThat(stored.getInteger("response_status")).isEqualTo(201);
        }
    }
}
