package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.deployment.smoke.SmokeApplication;
import io.idemkit.it.harness.LibraryJar;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URL;
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
 * A WAR with the library in {@code WEB-INF/lib} deploys on each runtime of the suite and answers
 * over HTTP. The library's beans.xml and CDI extension take part in that deployment, so a CDI
 * definition error of the library fails this test at deployment.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LibraryDeploysIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "library-deploys.war")
                        .addPackage(SmokeApplication.class.getPackage()));
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
    void warWithLibraryInWebInfLib_answersWithTheLibraryLoadedFromThere() throws Exception {
        URI where = base.toURI().resolve("api/where");

        try (Response response = client.target(where).request().get()) {
            assertThat(response.getStatus()).isEqualTo(200);
            assertThat(response.readEntity(String.class))
                    .contains("WEB-INF/lib/" + LibraryJar.NAME);
        }
    }
}
