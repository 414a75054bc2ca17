package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The owner's own writes of its claim wait for a lock longer than a duplicate's statements (C12,
 * {@link LockWait}): a lock on the table, as a migration's {@code ALTER TABLE} takes (PostgreSQL's
 * {@code ACCESS EXCLUSIVE}) or MariaDB's {@code LOCK TABLES … WRITE} (a metadata lock, as its
 * backup locks are), held past the duplicates' 1 s, must not turn a completion into a dropped
 * result, a release into a claim left behind, nor a renewal into a lost lease. On a real PostgreSQL
 * and MariaDB, the three wait for the lock at once; it is held {@link #PAST_THE_BOUND} longer, then
 * let go, and each succeeds.
 */
class OwnerLockBoundTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final StoredResult RESULT =
            new StoredResult(201, List.of(), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

    /** How long the lock is held once all three wait: past the duplicates' bound. */
    private static final Duration PAST_THE_BOUND = LockWait.BOUND.plusMillis(500);

    /** The owner's bound here: far above the hold, so that a loaded machine cannot reach it. */
    private static final Duration OWNER_BOUND = Duration.ofSeconds(20);

    private static final Duration EVENTUALLY = Duration.ofSeconds(15);

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"POSTGRESQL", "MARIADB"})
    void tableLockedPastTheDuplicatesBound_completionReleaseAndRenewalWaitAndSucceed(
            JdbcDialect dialect) throws Exception {
        DataSource dataSource = Databases.of(dialect);
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        dataSource,
                        new JdbcStoreSettings(table, true).withOwnerLockTimeout(OWNER_BOUND));
        store.start();
        String completed = key();
        ClaimResult completedClaim = store.claim(completed, FP, 1, LEASE);
        String released = key();
        ClaimResult releasedClaim = store.claim(released, FP, 1, LEASE);
        String renewed = key();
        ClaimResult renewedClaim = store.claim(renewed, FP, 1, LEASE);
        ExecutorService owners = Executors.newFixedThreadPool(3);
        try (Connection holder = dataSource.getConnection()) {
            lock(holder, dialect, table);
            Future<Boolean> completion =
                    owners.submit(
                            () -> store.complete(completed, completedClaim.token(), RESULT, LEASE));
            Future<Boolean> release =
                    owners.submit(() -> store.release(released, releasedClaim.token()));
            Future<Boolean> renewal =
                    owners.submit(() -> store.renew(renewed, renewedClaim.token(), LEASE));
            try {
                await().atMost(EVENTUALLY)
                        .until(() -> waitingForTheLock(dataSource, dialect, table) == 3);
                Thread.sleep(PAST_THE_BOUND.toMillis()); // holds the lock, synchronizes nothing
                assertThat(List.of(completion, release, renewal))
                        .as("still waiting past the duplicates' bound")
                        .noneMatch(Future::isDone);
            } finally {
                unlock(holder, dialect);
            }

            assertThat(completion.get(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the completion")
                    .isTrue();
            assertThat(release.get(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the release")
                    .isTrue();
            assertThat(renewal.get(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the renewal")
                    .isTrue();
        } finally {
            owners.shutdownNow();
            store.close();
        }
        try {
            assertThat(store.find(completed).orElseThrow().state())
                    .isEqualTo(RecordState.COMPLETED);
            assertThat(store.find(released)).isEmpty();
            assertThat(store.find(renewed).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        } finally {
            try (Connection c = dataSource.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + table);
            }
        }
    }

    @Test
    void ownersBound_defaultsAboveTheDuplicates_andIsRefusedOutOfRange() {
        assertThat(JdbcStoreSettings.defaults().ownerLockTimeout())
                .isEqualTo(Duration.ofSeconds(5))
                .isGreaterThan(LockWait.BOUND);
        JdbcStoreSettings settings = JdbcStoreSettings.defaults();

        assertThatThrownBy(() -> settings.withOwnerLockTimeout(Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Invalid idemkit.jdbc.owner-lock-timeout=PT0.5S: must be from 1s (the"
                                + " duplicates' bound) to 1h");
        assertThatThrownBy(() -> settings.withOwnerLockTimeout(Duration.ofHours(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid idemkit.jdbc.owner-lock-timeout=PT2H");
    }

    private static void lock(Connection c, JdbcDialect dialect, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (dialect == JdbcDialect.POSTGRESQL) {
                c.setAutoCommit(false);
                s.execute("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
            } else {
                s.execute("LOCK TABLES " + table + " WRITE");
            }
        }
    }

    private static void unlock(Connection c, JdbcDialect dialect) throws SQLException {
        if (dialect == JdbcDialect.POSTGRESQL) {
            c.commit();
            c.setAutoCommit(true);
        } else {
            try (Statement s = c.createStatement()) {
                s.execute("UNLOCK TABLES");
            }
        }
    }

    /**
     * @return how many sessions wait for the table's lock, as the database shows them
     */
    private static int waitingForTheLock(DataSource dataSource, JdbcDialect dialect, String table)
            throws SQLException {
        String sql =
                dialect == JdbcDialect.POSTGRESQL
                        ? "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                + " AND query LIKE ?"
                        : "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE"
                                + " 'Waiting for table metadata lock%' AND INFO LIKE ?";
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, "%" + table + "%");
            try (ResultSet rows = ps.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "").repeat(2);
    }
}
