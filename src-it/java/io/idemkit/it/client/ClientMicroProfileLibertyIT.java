package io.idemkit.it.client;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.openapi.OpenApiScenarios;
import io.idemkit.it.openapi.app.ApplicationOpenApiFilter;
import java.net.URI;
import java.net.URL;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The client half and the published contract on Open Liberty with its MicroProfile features, on a
 * server of the test's own so that the shared IT servers keep their feature lists: {@code
 * mpRestClient-4.0}, {@code mpFaultTolerance-4.1} and {@code mpOpenAPI-4.0} added to the IT
 * configuration, and {@code concurrent-3.0} for the managed executor. It runs {@link
 * ClientRestClientScenarios} (C14.3, C14.4, C14.5, C14.8) and {@link OpenApiScenarios} (C6.12).
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "an Open Liberty server of the test's own; WildFly and Payara Micro run the"
                        + " scenarios in ClientRestClientIT")
class ClientMicroProfileLibertyIT extends ClientRestClientScenarios {

    private static final String FEATURES =
            "  <featureManager>\n"
                    + "    <feature>mpRestClient-4.0</feature>\n"
                    + "    <feature>mpFaultTolerance-4.1</feature>\n"
                    + "    <feature>mpOpenAPI-4.0</feature>\n"
                    + "    <feature>concurrent-3.0</feature>\n"
                    + "  </featureManager>";

    private static LibertyServer server;
    private static URI application;
    private static URI root;

    @BeforeAll
    static void start() throws Exception {
        WebArchive war =
                restWar(
                        "client-mp",
                        w -> w.addPackage(ApplicationOpenApiFilter.class.getPackage()),
                        OpenApiScenarios.FILTER_CONFIG);
        server = new LibertyServer("idemkit-client-mp", war, FEATURES);
        server.start(server.application(war).resolve("api/charges/runs/probe/probe"));
        application = server.application(war);
        root = application.resolve("/");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    URL base() {
        try {
            return application.toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The OpenAPI scenarios, on the same server. */
    @Nested
    class PublishedContract extends OpenApiScenarios {
        @Override
        protected URI serverRoot() {
            return root;
        }
    }
}
