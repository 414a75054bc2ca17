package io.idemkit.it.http;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.ItPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The wake-ups on PostgreSQL in Open Liberty's pool, on a server-defined data source whose driver
 * library the application is given as a common library ({@code <classloader
 * commonLibraryRef="postgresql"/>}): the store unwraps the pool's connections to the driver's
 * {@code PGConnection} as its own class loader sees it. Liberty's usual set-up, where the
 * application cannot see the library, is {@code TwoNodesIT}'s.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
class JdbcNotificationsLibertyIT extends JdbcNotificationsScenarios {

    private static final String WAR = "jdbc-notifications";
    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void start() throws Exception {
        EmbeddedPostgres postgres = ItPostgres.start();
        liberty =
                DatabaseOnLiberty.start(
                        postgres,
                        ItPostgres.libertyDataSources(postgres),
                        "idemkit-jdbc-notifications",
                        memoryWar(WAR, ItPostgres.STORE_CONFIG),
                        ItPostgres.libertyApplicationSeeingTheDriver(WAR),
                        "api/calls/probe");
    }

    @AfterAll
    static void stop() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    /** The scenarios' client goes to this test's server, not to one Arquillian deployed to. */
    JdbcNotificationsLibertyIT() throws Exception {
        base = liberty.app().toURL();
    }
}
