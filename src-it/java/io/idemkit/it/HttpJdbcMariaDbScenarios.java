package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/**
 * The HTTP scenarios on the JDBC store on a real MariaDB 11.4 (C6, C12), with MariaDB's own driver,
 * whichever way the runtime defines the data source.
 */
abstract class HttpJdbcMariaDbScenarios extends HttpScenarios {

    /**
     * @return the database the application's data source reaches
     */
    abstract ItMariaDb mariaDb();

    @Test
    void theRecordsAreRowsOfTheMariaDbTable() throws Exception {
        Reply first = post("api/resources", BODY_X, key("M1"));

        assertThat(first.status()).isEqualTo(201);
        try (Connection c = DriverManager.getConnection(mariaDb().url(), ItMariaDb.USER, "")) {
            assertThat(storedState(c, effectiveKey(key("M1"), "api/resources")))
                    .isEqualTo("COMPLETED");
        }
    }

    @Test
    void crash_recovery_lease_expiry() throws Exception {
        stagedCrashRecovery();
    }
}
