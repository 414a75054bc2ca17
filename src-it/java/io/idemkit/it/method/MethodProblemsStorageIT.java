package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.method.problems.runtime.AnyRuntimeFailure;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A store that cannot be reached, under fail-closed (C4.6): the {@code @Idempotent} bean's storage
 * exception reaches the client as 503 with {@code Retry-After} (C7.5), not as the application's
 * catch-all 500. The MongoDB URI names a port where nothing listens.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MethodProblemsStorageIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return MethodProblemsScenarios.application(
                "method-problems-storage",
                AnyRuntimeFailure.class,
                "idemkit.mongo.uri=mongodb://127.0.0.1:"
                        + TestPorts.next()
                        + "\nidemkit.mongo.timeout=1s\n");
    }

    @ArquillianResource private URL base;

    @Test
    void storeDown_is503StorageErrorWithRetryAfter() throws Exception {
        Client client = ClientBuilder.newClient();
        try (Response r =
                client.target(base.toURI().resolve("api/problems/charge"))
                        .queryParam("key", UUID.randomUUID().toString())
                        .queryParam("amount", 10)
                        .request()
                        .post(Entity.text(""))) {
            String body = r.readEntity(String.class);

            assertThat(r.getStatus()).as(body).isEqualTo(503);
            assertThat(r.getMediaType()).hasToString("application/problem+json");
            assertThat(body).contains("\"type\":\"urn:idemkit:storage-error\"");
            assertThat(body).doesNotContain("127.0.0.1").doesNotContain("Exception");
            assertThat(r.getHeaderString("Retry-After")).isEqualTo("5");
        } finally {
            client.close();
        }
    }
}
