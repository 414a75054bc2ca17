package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The wake-ups on PostgreSQL in Open Liberty's pool, on a server-defined data source whose driver
 * library the application is given as a common library ({@code <classloader
 * commonLibraryRef="postgresql"/>}): the store unwraps the pool's connections to the driver's
 * {@code PGConnection} as its own class loader sees it. On the Open Liberty server the JDBC tests
 * share ({@link SharedLiberty}); the class loader setting is this application's alone. Liberty's
 * usual set-up, where the application cannot see the library, is {@code TwoNodesIT}'s.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the server-defined data sources of this test are Open Liberty's")
class JdbcNotificationsLibertyIT extends JdbcNotificationsScenarios {

    private static final WebArchive WAR = memoryWar("jdbc-notifications", ItPostgres.STORE_CONFIG);
    private static URI app;

    @BeforeAll
    static void start() throws Exception {
        app =
                SharedLiberty.get()
                        .deploy(
                                WAR,
                                "api/calls/probe",
                                "<classloader commonLibraryRef=\"postgresql\"/>");
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            SharedLiberty.get().undeploy(WAR);
        }
    }

    /** The scenarios' client goes to the shared server, not to one Arquillian deployed to. */
    JdbcNotificationsLibertyIT() throws Exception {
        base = app.toURL();
    }
}
