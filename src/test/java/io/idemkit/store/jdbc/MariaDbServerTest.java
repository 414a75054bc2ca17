package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.IdempotencyStorageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * What the JDBC store checks of a MariaDB server at start ({@link MariaDbServer}), on real servers:
 * MariaDB 10.2 ({@link MariaDb102}, with a binary log), the release line before 11.1 the tests can
 * start, and the shared MariaDB 11.4. Each refusal is a deployment failure that names the cause and
 * the change, where the store used to start and then fail every claim with an SQL error.
 */
@EnabledIf(
        value = "io.idemkit.store.jdbc.MariaDb102#available",
        disabledReason = "MariaDB 10.2's binaries run on Linux amd64 only")
class MariaDbServerTest {

    @Test
    void mariaDb102_isRefusedAtStart_namingTheOldestSupportedRelease() {
        JdbcIdempotencyStore store = store(MariaDb102.pool());

        assertThatThrownBy(store::start)
                .isInstanceOf(IdempotencyStorageException.class)
                .satisfies(
                        e ->
                                assertThat(((IdempotencyStorageException) e).kind())
                                        .isEqualTo(IdempotencyStorageException.Kind.REFUSED))
                .hasMessageContaining("needs MariaDB 10.5 or newer")
                .hasMessageContaining("10.2.11-MariaDB")
                .hasMessageNotContaining("binlog_format");
    }

    @Test
    void statementFormatBinaryLog_isRefusedAtStart_withTheSettingToChange() {
        try (HikariDataSource statementLogging =
                MariaDb102.pool("SET SESSION binlog_format = 'STATEMENT'")) {
            JdbcIdempotencyStore store = store(statementLogging);

            assertThatThrownBy(store::start)
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("binlog_format = STATEMENT")
                    .hasMessageContaining("binlog_format = ROW");
        }
    }

    /** Why the binary-log check exists: the write the check refuses to start on, really refused. */
    @Test
    void statementFormatBinaryLog_makesInnoDbRefuseWritesAtReadCommitted() throws SQLException {
        String table = "idemkit_binlog_" + UUID.randomUUID().toString().substring(0, 8);
        try (HikariDataSource statementLogging =
                        MariaDb102.pool("SET SESSION binlog_format = 'STATEMENT'");
                Connection c = statementLogging.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (k VARCHAR(10) PRIMARY KEY) ENGINE=InnoDB");
            s.execute("SET SESSION tx_isolation = 'READ-COMMITTED'");

            assertThatThrownBy(() -> s.execute("INSERT INTO " + table + " VALUES ('a')"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1665));
        }
    }

    /** Why the isolation is probed: MariaDB before 11.1 refuses it in SET STATEMENT. */
    @Test
    void mariaDbBefore111_refusesTheIsolationInSetStatement() throws SQLException {
        try (Connection c = MariaDb102.pool().getConnection();
                Statement s = c.createStatement()) {
            assertThatThrownBy(
                            () ->
                                    s.execute(
                                            "SET STATEMENT "
                                                    + ReadCommitted.setting(
                                                            ReadCommitted.OLD_VARIABLE)
                                                    + " FOR SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(
                            e ->
                                    assertThat(((SQLException) e).getErrorCode())
                                            .isEqualTo(MariaDbServer.SET_STATEMENT_REFUSED));
        }
    }

    /**
     * A server that refuses the isolation in SET STATEMENT gets the lock bounds alone, which both
     * release lines run.
     */
    @Test
    void boundedStatementWithoutIsolation_runsOnBothReleaseLines() throws SQLException {
        String bounded = LockWait.bounded(JdbcDialect.MARIADB, null, "SELECT 1");
        assertThat(bounded).doesNotContain("isolation");
        for (DataSource server : new DataSource[] {MariaDb102.pool(), Databases.mariaDb()}) {
            try (Connection c = server.getConnection();
                    Statement s = c.createStatement()) {
                assertThat(s.execute(bounded)).isTrue();
            }
        }
    }

    @Test
    void mariaDb114_takesTheIsolationInSetStatement() throws SQLException {
        try (Connection c = Databases.mariaDb().getConnection()) {
            assertThat(MariaDbServer.check(c)).isEqualTo(ReadCommitted.VARIABLE);
        }
    }

    private static JdbcIdempotencyStore store(DataSource dataSource) {
        return new JdbcIdempotencyStore(
                dataSource,
                new JdbcStoreSettings(
                        "idemkit_mdb102_" + UUID.randomUUID().toString().substring(0, 8), true));
    }
}
