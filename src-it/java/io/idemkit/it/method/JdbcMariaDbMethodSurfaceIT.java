package io.idemkit.it.method;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.ItMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The method surface on the JDBC store on a real MariaDB 11.4 (C7, C12), on an Open Liberty server
 * of the test's own whose data source {@code jdbc/idemkit} uses MariaDB's driver as a server
 * library.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
class JdbcMariaDbMethodSurfaceIT extends MethodSurfaceContract {

    private static DatabaseOnLiberty<ItMariaDb> liberty;

    @BeforeAll
    static void start() throws Exception {
        liberty =
                ItMariaDb.onLiberty(
                        "idemkit-method-mariadb",
                        JdbcMethodSurfaceIT.war("method-mariadb"),
                        "",
                        "api/method/store");
    }

    @AfterAll
    static void stop() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    /** The contract's client goes to this test's server, not to one Arquillian deployed to. */
    JdbcMariaDbMethodSurfaceIT() throws Exception {
        base = liberty.app().toURL();
    }

    @Override
    String expectedStore() {
        return "jdbc";
    }
}
