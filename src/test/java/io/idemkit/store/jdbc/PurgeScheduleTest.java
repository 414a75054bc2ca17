package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.testsupport.CapturedLog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The purge the library schedules on its own ({@code idemkit.jdbc.purge-interval}, C12), on a real
 * {@link java.util.concurrent.ScheduledExecutorService} and a store on H2: expired rows disappear
 * with no call of anyone, a failing run warns and the next one tries again, and closing the
 * schedule stops it, and its own thread with it.
 */
class PurgeScheduleTest {

    private static final Duration INTERVAL = Duration.ofMillis(50);

    private final DataSource dataSource = Databases.h2();
    private final String table = JdbcStoreContract.freshTable();
    private final JdbcIdempotencyStore store =
            new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
    private PurgeSchedule schedule;

    @AfterEach
    void stopAndDropTheTable() throws SQLException {
        if (schedule != null) {
            schedule.close();
        }
        execute("DROP TABLE IF EXISTS " + table);
    }

    @Test
    void onItsOwnThread_purgesExpiredRowsWithNoCall_andCloseEndsTheThread() throws SQLException {
        store.start();
        plant(3, 1);
        plant(1, Long.MAX_VALUE);

        schedule = PurgeSchedule.onOwnThread(store, INTERVAL);

        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 1);
        assertThat(purgeThreads()).isPositive();

        schedule.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> purgeThreads() == 0);
        plant(2, 1);
        await().during(INTERVAL.multipliedBy(6))
                .atMost(Duration.ofSeconds(5))
                .until(() -> rows() == 3);
    }

    @Test
    void onAGivenExecutor_closeCancelsTheRuns_andLeavesTheExecutorRunning() throws Exception {
        ScheduledThreadPoolExecutor managed = new ScheduledThreadPoolExecutor(1);
        managed.setRemoveOnCancelPolicy(true);
        try {
            store.start();
            plant(2, 1);

            schedule = PurgeSchedule.on(managed, store, INTERVAL);

            await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);

            schedule.close();

            assertThat(managed.isShutdown()).isFalse();
            assertThat(managed.getQueue()).isEmpty();
            // A run the close found under way finishes; only then are the new rows planted, so
            // that a run after the close, not that one, is what would purge them.
            await().atMost(Duration.ofSeconds(10)).until(() -> managed.getActiveCount() == 0);
            plant(2, 1);
            await().during(INTERVAL.multipliedBy(6))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> rows() == 2);
        } finally {
            managed.shutdownNow();
        }
    }

    @Test
    void aFailingRun_warnsWithTheExceptionsClassOnly_andTheNextRunPurges() throws SQLException {
        store.start();
        String away = table + "_away";
        execute("ALTER TABLE " + table + " RENAME TO " + away);
        try (CapturedLog log = CapturedLog.of(PurgeSchedule.class)) {
            schedule = PurgeSchedule.onOwnThread(store, INTERVAL);

            await().atMost(Duration.ofSeconds(10)).until(() -> log.warnings().size() >= 2);

            assertThat(log.warnings().get(0))
                    .contains("IdempotencyStorageException")
                    .contains("next run")
                    .doesNotContain(table.toUpperCase(java.util.Locale.ROOT))
                    .doesNotContain(table)
                    .doesNotContain("thrown");
            execute("ALTER TABLE " + away + " RENAME TO " + table);
            plant(2, 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        }
    }

    @Test
    void aRunThatMeetsRowsAnotherTransactionHolds_saysSoAtInfo_notAsAWarning() throws Exception {
        // Several instances may purge at once: on H2 and MariaDB a batch waits for rows another
        // purge holds, at most the lock bound. That is contention, nothing to act on.
        store.start();
        plant(2, 1);
        try (Connection holder = dataSource.getConnection();
                CapturedLog log = CapturedLog.of(PurgeSchedule.class)) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.executeUpdate("UPDATE " + table + " SET state = state");
            }
            try {
                schedule = PurgeSchedule.onOwnThread(store, INTERVAL);

                await().atMost(Duration.ofSeconds(20))
                        .until(() -> !log.messages(java.util.logging.Level.INFO).isEmpty());

                assertThat(log.messages(java.util.logging.Level.INFO).get(0))
                        .contains("another transaction");
                assertThat(log.warnings()).isEmpty();
            } finally {
                holder.rollback();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        }
    }

    @Test
    void anIntervalOfZero_isRefused() {
        assertThatThrownBy(() -> PurgeSchedule.onOwnThread(store, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid idemkit.jdbc.purge-interval=PT0S: must be positive");
    }

    private int seq;

    /** {@code count} claim rows whose lease ends at {@code leaseUntil} (epoch millis). */
    private void plant(int count, long leaseUntil) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO "
                                        + table
                                        + " (idem_key, state, lease_until) VALUES (?, 'CLAIMED', ?)")) {
            for (int i = 0; i < count; i++) {
                ps.setString(1, String.format("%064x", seq++));
                ps.setLong(2, leaseUntil);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private int rows() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static long purgeThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals(PurgeSchedule.THREAD_NAME))
                .count();
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
