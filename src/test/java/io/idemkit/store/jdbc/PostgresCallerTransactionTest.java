package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A claim that meets a duplicate key never poisons the application's transaction on PostgreSQL
 * (C12), where any error aborts the whole transaction: the store's claims run on connections of
 * their own, and the claim statement itself raises no duplicate-key error even when it runs inside
 * a caller's open transaction ({@code ON CONFLICT DO NOTHING}); and the fenced completion, run on
 * the caller's connection, rolls back and commits with the caller's own write. Completion in the
 * business transaction (C13) will rely on both.
 */
class PostgresCallerTransactionTest {

    private static final String FP = "f".repeat(64);
    private static final long MINUTE = Duration.ofMinutes(1).toMillis();

    private final DataSource dataSource = Databases.postgres();
    private String table;
    private String business;
    private JdbcIdempotencyStore store;

    @BeforeEach
    void createTables() throws SQLException {
        table = JdbcStoreContract.freshTable();
        business = JdbcStoreContract.freshTable() + "_orders";
        store = new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        store.start();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + business + " (id INTEGER PRIMARY KEY)");
        }
    }

    @AfterEach
    void dropTables() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
            s.execute("DROP TABLE " + business);
        }
    }

    @Test
    void claimsDuringTheCallersTransaction_commitOnTheirOwn_andLeaveItUsable() throws SQLException {
        // The claim never runs in the caller's transaction (C12): a claim made while it is open
        // is visible to every other session at once and outlives its rollback, and a claim that
        // meets a key already there leaves it usable. A claim run inside the caller's transaction
        // would be invisible until its commit and gone with its rollback.
        String there = "a".repeat(64);
        String fresh = "b".repeat(64);
        store.claim(there, FP, 1, Duration.ofMinutes(1));
        ClaimResult won;
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            insertOrder(caller, 1);

            ClaimResult again = store.claim(there, FP, 1, Duration.ofMinutes(1));
            won = store.claim(fresh, FP, 1, Duration.ofMinutes(1));

            assertThat(again.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            assertThat(won.status()).isEqualTo(ClaimStatus.NEW);
            assertThat(claimTokenSeenByAnotherSession(fresh))
                    .as("committed before the caller's transaction ends")
                    .isEqualTo(won.token().value());
            insertOrder(caller, 2);
            caller.rollback();
        }
        assertThat(orders()).isZero();
        assertThat(store.find(fresh).orElseThrow().token()).isEqualTo(won.token());
    }

    @Test
    void claimStatementOnTheCallersOwnConnection_meetsTheKeyWithoutAbortingTheTransaction()
            throws SQLException {
        String key = "b".repeat(64);
        store.claim(key, FP, 1, Duration.ofMinutes(1));
        RecordStatements sql = new RecordStatements(JdbcDialect.POSTGRESQL, table);
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            insertOrder(caller, 1);

            ClaimResult again =
                    new ClaimSteps(JdbcDialect.POSTGRESQL, sql).claim(caller, key, FP, 1, MINUTE);

            assertThat(again.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            insertOrder(caller, 2);
            caller.commit();
        }
        assertThat(orders()).isEqualTo(2);
    }

    @Test
    void completionOnTheCallersConnection_rollsBackAndCommitsWithTheBusinessWrite()
            throws SQLException {
        // The ground C13 will stand on: the fenced completion runs as is inside a transaction.
        String key = "d".repeat(64);
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofMinutes(1));
        RecordStatements sql = new RecordStatements(JdbcDialect.POSTGRESQL, table);
        StoredResult result = new StoredResult(201, List.of(), new byte[] {7});
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            insertOrder(caller, 1);
            assertThat(
                            ResultWrite.completeInTransactionOn(
                                    caller,
                                    sql,
                                    Long.MAX_VALUE,
                                    key,
                                    claim.token(),
                                    result,
                                    Duration.ofHours(1)))
                    .isTrue();
            caller.rollback();
            assertThat(store.find(key).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);

            insertOrder(caller, 1);
            ResultWrite.completeInTransactionOn(
                    caller, sql, Long.MAX_VALUE, key, claim.token(), result, Duration.ofHours(1));
            caller.commit();
        }
        assertThat(orders()).isEqualTo(1);
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(result);
    }

    @Test
    void completeInTransaction_writesThroughTheEnlistedDataSource_andIsFencedByTheToken()
            throws Exception {
        String key = "e".repeat(64);
        String stolen = "9".repeat(64);
        StoredResult result = new StoredResult(200, List.of(), new byte[] {1});
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            JdbcIdempotencyStore inTx =
                    new JdbcIdempotencyStore(
                            dataSource,
                            EnlistedConnections.of(() -> caller),
                            new JdbcStoreSettings(table, false));
            ClaimResult claim = inTx.claim(key, FP, 1, Duration.ofMinutes(1));
            insertOrder(caller, 1);

            assertThat(inTx.completeInTransaction(key, claim.token(), result, Duration.ofHours(1)))
                    .isTrue();
            assertThat(store.find(key).orElseThrow().state())
                    .as("not visible before the commit")
                    .isEqualTo(RecordState.CLAIMED);
            caller.commit();
            assertThat(store.find(key).orElseThrow().result()).isEqualTo(result);

            // A lease that lapsed and was taken over: the late completion changes nothing.
            ClaimResult late = inTx.claim(stolen, FP, 1, Duration.ofMillis(1));
            Thread.sleep(20);
            ClaimResult takeover = store.claim(stolen, FP, 1, Duration.ofMinutes(1));
            assertThat(takeover.token()).isNotEqualTo(late.token());
            assertThat(
                            inTx.completeInTransaction(
                                    stolen, late.token(), result, Duration.ofHours(1)))
                    .isFalse();
            caller.commit();
            assertThat(store.find(stolen).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        }
        assertThat(orders()).isEqualTo(1);
        assertThatThrownBy(
                        () ->
                                store.completeInTransaction(
                                        key, ClaimToken.random(), result, Duration.ofHours(1)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("idemkit.jdbc.transaction-datasource");
    }

    @Test
    void plainInsertOfAKeyThatIsThere_wouldAbortTheCallersTransaction() throws SQLException {
        // The control: what the claim avoids. Without ON CONFLICT, PostgreSQL fails every later
        // statement of the transaction.
        String key = "c".repeat(64);
        store.claim(key, FP, 1, Duration.ofMinutes(1));
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            insertOrder(caller, 1);
            assertThatThrownBy(
                            () -> {
                                try (PreparedStatement ps =
                                        caller.prepareStatement(
                                                "INSERT INTO "
                                                        + table
                                                        + " (idem_key) VALUES (?)")) {
                                    ps.setString(1, key);
                                    ps.executeUpdate();
                                }
                            })
                    .isInstanceOf(SQLException.class);

            assertThatThrownBy(() -> insertOrder(caller, 2))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("current transaction is aborted");
            caller.rollback();
        }
    }

    private void insertOrder(Connection caller, int id) throws SQLException {
        try (PreparedStatement ps =
                caller.prepareStatement("INSERT INTO " + business + " (id) VALUES (?)")) {
            ps.setInt(1, id);
            ps.executeUpdate();
        }
    }

    private String claimTokenSeenByAnotherSession(String key) throws SQLException {
        try (Connection other = dataSource.getConnection();
                PreparedStatement ps =
                        other.prepareStatement(
                                "SELECT claim_token FROM " + table + " WHERE idem_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rows = ps.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private int orders() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + business)) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
