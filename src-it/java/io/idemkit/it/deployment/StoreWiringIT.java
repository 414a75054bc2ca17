package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.deployment.wiring.RoundTrip;
import io.idemkit.it.deployment.wiring.WiringApplication;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.spi.ClaimStatus;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On each runtime of the suite, with no idemkit configuration, an application that injects {@code
 * IdempotencyStore} gets the library's in-memory store, and a claim after a completed claim finds
 * the stored result.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class StoreWiringIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "store-wiring.war")
                        .addPackage(WiringApplication.class.getPackage()));
    }

    @ArquillianResource private URL base;

    private Client client;

    @BeforeEach
    void openClient() {
        client = ClientBuilder.newClient();
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    @Test
    void claimAfterCompletedClaim_findsTheStoredResultInTheMemoryStore() throws Exception {
        String key = UUID.randomUUID().toString();

        RoundTrip trip;
        try (Response response =
                client.target(base.toURI().resolve("api/store/round-trip"))
                        .queryParam("key", key)
                        .request(MediaType.APPLICATION_JSON)
                        .post(Entity.text("stored body"))) {
            assertThat(response.getStatus()).isEqualTo(200);
            trip = response.readEntity(RoundTrip.class);
        }

        assertThat(trip.storeName()).isEqualTo("memory");
        assertThat(trip.engineResolvable()).isTrue();
        assertThat(trip.firstClaim()).isEqualTo(ClaimStatus.NEW);
        assertThat(trip.completed()).isTrue();
        assertThat(trip.secondClaim()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(trip.replayedStatus()).isEqualTo(201);
        assertThat(trip.replayedBody()).isEqualTo("stored body");
    }
}
