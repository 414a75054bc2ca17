package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The purge the application schedules (C12: a relational database has no TTL index): it deletes
 * every row whose time ran out by the database's clock (a claim lapsed past the grace its owner
 * gets, a result past its retention, an expired attempt count, an unreadable row without a lease)
 * and keeps every live one, and a claim lapsed within the grace. The contract suite checks only
 * that it keeps the live ones.
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
            // Lapsed long ago, past the grace its owner gets.
            execute(
                    dataSource,
                    "UPDATE "
                            + table
                            + " SET lease_until = 1 WHERE idem_key = '"
                            + "a".repeat(64)
                            + "'");
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

    /**
     * A claim whose lease lapsed is kept an hour more ({@link
     * RecordStatements#CLAIM_GRACE_MILLIS}): its owner may still run (a renewal that failed, a
     * pause), and as long as no duplicate took the claim over, its completion, fenced by its token,
     * still stores the result; purged, the result would be dropped and a retry would run the
     * operation again.
     */
    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void purge_keepsAClaimLapsedWithinTheGrace_andItsOwnerStillCompletesIt(JdbcDialect dialect)
            throws SQLException {
        DataSource dataSource = Databases.of(dialect);
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        try {
            String owned = "a".repeat(64);
            ClaimResult claim = store.claim(owned, FP, 1, Duration.ofMillis(1));
            Instant lapsed = store.now().plusMillis(5);
            Awaitility.await().until(() -> store.now().isAfter(lapsed));
            long now = store.now().toEpochMilli();
            String withinTheGrace = "b".repeat(64);
            String pastTheGrace = "c".repeat(64);
            try (Connection c = dataSource.getConnection();
                    PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO "
                                            + table
                                            + " (idem_key, state, lease_until) VALUES (?, 'CLAIMED',"
                                            + " ?)")) {
                ps.setString(1, withinTheGrace);
                ps.setLong(2, now - RecordStatements.CLAIM_GRACE_MILLIS + 60_000);
                ps.executeUpdate();
                ps.setString(1, pastTheGrace);
                ps.setLong(2, now - RecordStatements.CLAIM_GRACE_MILLIS - 60_000);
                ps.executeUpdate();
            }

            assertThat(store.purgeExpired()).as("the claim lapsed past the grace").isEqualTo(1);

            assertThat(rows(dataSource, table))
                    .as("the claims lapsed within the grace")
                    .isEqualTo(2);
            assertThat(
                            store.complete(
                                    owned,
                                    claim.token(),
                                    new StoredResult(200, List.of(), new byte[0]),
                                    Duration.ofMinutes(5)))
                    .as("the owner's completion after the purge")
                    .isTrue();
            assertThat(store.find(owned).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        } finally {
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void purgeOfMoreRowsThanABatch_deletesThemAll_inStatementsOfOneBatchEach(JdbcDialect dialect)
            throws SQLException {
        // One unbounded DELETE would hold the locks of every row it scans until it ends (InnoDB's
        // next-key locks), blocking claims and renewals: the purge deletes a batch a statement.
        DataSource dataSource = Databases.of(dialect);
        CountingDataSource counting = new CountingDataSource(dataSource);
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(counting.dataSource(), new JdbcStoreSettings(table, true));
        try {
            store.start();
            int expired = 2 * JdbcIdempotencyStore.PURGE_BATCH + 1;
            plantExpired(dataSource, table, 0, expired);
            String live = "e".repeat(64);
            store.claim(live, FP, 1, Duration.ofMinutes(5));
            counting.reset();

            long purged = store.purgeExpired();

            assertThat(purged).isEqualTo(expired);
            assertThat(counting.executed()).as("statements").isEqualTo(3);
            assertThat(rows(dataSource, table)).isEqualTo(1);
            assertThat(store.find(live)).isPresent();
        } finally {
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    @Test
    void purgeOnPostgres_skipsARowAnotherTransactionHolds_andDeletesTheRest() throws Exception {
        // A late completion inside a business transaction (C13) holds its expired row until the
        // commit: the purge must not wait for it, with the locks of the rows it already took.
        DataSource dataSource = Databases.postgres();
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        store.start();
        plantExpired(dataSource, table, 0, 3);
        CompletableFuture<Long> purge = null;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.executeUpdate(
                        "UPDATE " + table + " SET state = state WHERE idem_key = '" + key(1) + "'");
            }
            try {
                purge = CompletableFuture.supplyAsync(store::purgeExpired);

                assertThat(purge.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            } finally {
                holder.rollback();
            }
            assertThat(store.purgeExpired()).isEqualTo(1);
            assertThat(rows(dataSource, table)).isZero();
        } finally {
            if (purge != null) {
                purge.exceptionally(e -> 0L).get(30, TimeUnit.SECONDS);
            }
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ReadCommitted.VARIABLE, ReadCommitted.OLD_VARIABLE})
    void purgeOnMariaDb_heldOpen_takesNoGapLock_thatWouldHoldUpTheClaimOfANewKey(
            String isolationVariable) throws Exception {
        // Under InnoDB's default REPEATABLE READ the purge's range scan locks the gap between the
        // last expired row and the first live one in the lease_until index, where a new claim's
        // lease lands: the claim waited for the purge, and past the lock bound failed as
        // contention. The store runs its statements at READ COMMITTED, which takes no gap locks.
        // The purge's own statement, as the store sends it, is held open in a transaction here to
        // make a slow purge of a large table. Also with the variable's name before MariaDB 11.1,
        // which this 11.4 server still takes.
        ClaimResult claim =
                claimOfANewKeyWhileThePurgeIsHeldOpen(
                        table ->
                                new RecordStatements(
                                                JdbcDialect.MARIADB, table, isolationVariable, null)
                                        .purge);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void purgeOnMariaDb_heldOpenAtRepeatableRead_holdsUpTheClaim_theControl() {
        // Without the isolation clause, the same scenario runs into the lock bound: the test above
        // proves something on this server.
        String clause = ", " + ReadCommitted.setting(ReadCommitted.VARIABLE);

        assertThatThrownBy(
                        () ->
                                claimOfANewKeyWhileThePurgeIsHeldOpen(
                                        table ->
                                                new RecordStatements(JdbcDialect.MARIADB, table)
                                                        .purge.replace(clause, "")))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        IdempotencyStorageException.class,
                        e ->
                                assertThat(e.kind())
                                        .isEqualTo(IdempotencyStorageException.Kind.CONTENDED));
    }

    /**
     * On MariaDB: three expired rows and a result kept for an hour; the purge statement {@code
     * purgeOf} gives for the table, run in a transaction left open; and meanwhile the claim of a
     * new key, whose lease lands between the expired rows and the kept one.
     */
    private static ClaimResult claimOfANewKeyWhileThePurgeIsHeldOpen(
            Function<String, String> purgeOf) throws Exception {
        DataSource dataSource = Databases.mariaDb();
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        ExecutorService claims = Executors.newSingleThreadExecutor();
        try {
            store.start();
            plantExpired(dataSource, table, 0, 3);
            String kept = "e".repeat(64);
            store.complete(
                    kept,
                    store.claim(kept, FP, 1, Duration.ofMinutes(1)).token(),
                    new StoredResult(200, List.of(), new byte[0]),
                    Duration.ofHours(1));
            try (Connection purge = dataSource.getConnection()) {
                purge.setAutoCommit(false);
                try {
                    try (PreparedStatement ps = purge.prepareStatement(purgeOf.apply(table))) {
                        ps.setInt(1, JdbcIdempotencyStore.PURGE_BATCH);
                        assertThat(ps.executeUpdate()).isEqualTo(3);
                    }
                    return claims.submit(
                                    () -> store.claim("a".repeat(64), FP, 1, Duration.ofMinutes(1)))
                            .get(10, TimeUnit.SECONDS);
                } finally {
                    purge.rollback();
                }
            }
        } finally {
            claims.shutdownNow();
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    /** Rows {@code from} to {@code to - 1}, each a claim whose lease ended at the epoch's start. */
    private static void plantExpired(DataSource dataSource, String table, int from, int to)
            throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO "
                                        + table
                                        + " (idem_key, state, lease_until) VALUES (?, 'CLAIMED', 1)")) {
            for (int i = from; i < to; i++) {
                ps.setString(1, key(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static String key(int i) {
        return String.format("%064x", i);
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
