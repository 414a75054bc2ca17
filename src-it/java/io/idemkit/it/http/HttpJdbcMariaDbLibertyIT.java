package io.idemkit.it.http;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.ItMariaDb;
import io.idemkit.it.harness.ItPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The HTTP scenarios on MariaDB on an Open Liberty server of the test's own, whose data source
 * {@code jdbc/idemkit} (Liberty's {@code jdbc-4.3}, not enlisted in JTA) uses MariaDB's driver as a
 * server library.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
class HttpJdbcMariaDbLibertyIT extends HttpJdbcScenarios {

    private static WebArchive war;
    private static DatabaseOnLiberty<ItMariaDb> liberty;

    @BeforeAll
    static void start() throws Exception {
        war = scenarioWar("http-jdbc-mariadb", ItPostgres.STORE_CONFIG);
        liberty =
                ItMariaDb.onLiberty(
                        "idemkit-http-mariadb",
                        war,
                        // The same features as the server the other stores' scenarios run on.
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
    HttpJdbcMariaDbLibertyIT() throws Exception {
        base = liberty.app().toURL();
    }

    @Override
    Connection database() throws SQLException {
        return DriverManager.getConnection(liberty.database().url(), ItMariaDb.USER, "");
    }

    @Override
    long serverLog(String marker) throws java.io.IOException {
        return liberty.server().messagesLog().lines().filter(l -> l.contains(marker)).count();
    }

    @Override
    ServerToKill serverToKill() {
        return new ServerToKill(liberty.server(), war);
    }
}
