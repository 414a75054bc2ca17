package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The purge the application schedules (C12: a relational database has no TTL index): it deletes
 * every row whose time ran out by the database's clock (a lapsed claim, a result past its
 * retention, an expired attempt count, an unreadable row without a lease) and keeps every live one.
 * The contract suite checks only the second half.
 */
class PurgeTest {

    private static final String FP = "f".repeat(64);

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void purgeExpired_deletesEveryExpiredRowAndKeepsTheLiveOnes(JdbcDialect dialect)
            throws SQLException {
        DataSource dataSource = Databases.of(dialect);
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        try {
            store.claim("a".repeat(64), FP, 1, Duration.ofMillis(1));
            String lapsedResult = "b".repeat(64);
            store.complete(
                    lapsedResult,
                    store.claim(lapsedResult, FP, 1, Duration.ofMinutes(1)).token(),
                    new StoredResult(200, List.of(), new byte[0]),
                    Duration.ofMillis(1));
            store.countAttempt("c".repeat(64), Duration.ofMillis(1));
            execute(
                    dataSource,
                    "INSERT INTO " + table + " (idem_key) VALUES ('" + "d".repeat(64) + "')");
            String liveClaim = "e".repeat(64);
            store.claim(liveClaim, FP, 1, Duration.ofMinutes(5));
            String liveResult = "f".repeat(64);
            store.complete(
                    liveResult,
                    store.claim(liveResult, FP, 1, Duration.ofMinutes(1)).token(),
                    new StoredResult(200, List.of(), new byte[0]),
                    Duration.ofMinutes(5));
            Instant later = store.now().plusMillis(5);
            Awaitility.await().until(() -> store.now().isAfter(later));

            long purged = store.purgeExpired();

            assertThat(purged).isEqualTo(4);
            assertThat(rows(dataSource, table)).isEqualTo(2);
            assertThat(store.find(liveClaim).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
            assertThat(store.find(liveResult).orElseThrow().state())
                    .isEqualTo(RecordState.COMPLETED);
        } finally {
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    private static int rows(DataSource dataSource, String table) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
