package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the scheduled purge runs ({@code idemkit.jdbc.purge-interval}, C12): on the runtime's
 * default managed scheduled executor when the container has one, which it leaves running when it
 * stops; on a thread of its own when it has none, or the executor refuses the schedule. A real
 * {@link ScheduledThreadPoolExecutor} stands for the container's.
 */
class JdbcPurgeSchedulingTest {

    private static final Duration INTERVAL = Duration.ofMillis(50);

    private final ScheduledThreadPoolExecutor managed = new ScheduledThreadPoolExecutor(1);
    private JdbcDataSource h2;
    private JdbcIdempotencyStore store;
    private Optional<PurgeSchedule> schedule = Optional.empty();
    private Optional<ScheduledExecutorService> container = Optional.empty();

    @BeforeEach
    void storeWithExpiredRows() {
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:purge-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = new JdbcIdempotencyStore(h2, new JdbcStoreSettings("idem", true));
        expiredResult("a".repeat(64));
        expiredResult("b".repeat(64));
    }

    /** A result kept 1 ms: expired at once (a lapsed claim is kept an hour for its owner). */
    private void expiredResult(String key) {
        store.complete(
                key,
                store.claim(key, "fp", 1, Duration.ofMinutes(1)).token(),
                new StoredResult(200, List.of(), new byte[0]),
                Duration.ofMillis(1));
    }

    @AfterEach
    void stop() throws SQLException {
        schedule.ifPresent(PurgeSchedule::close);
        managed.shutdownNow();
        try (Connection c = h2.getConnection();
                Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void aManagedScheduler_runsThePurge_andIsLeftRunningWhenItStops() {
        container = Optional.of(managed);

        schedule = JdbcPurgeScheduling.start(store, INTERVAL, container, "the container's");

        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        assertThat(managed.getCompletedTaskCount() + managed.getActiveCount())
                .as("runs on the managed executor")
                .isPositive();
        await().atMost(Duration.ofSeconds(10))
                .alias("no thread of its own (one of an earlier test ends on its own)")
                .until(() -> ownThreads() == 0);
        schedule.orElseThrow().close();
        assertThat(managed.isShutdown()).isFalse();
    }

    @Test
    void aManagedSchedulerThatRefusesTheSchedule_leavesItToAThreadOfItsOwn() {
        managed.shutdown();
        container = Optional.of(managed);

        try (CapturedLog log = CapturedLog.of(JdbcPurgeScheduling.class)) {
            schedule = JdbcPurgeScheduling.start(store, INTERVAL, container, "the container's");

            assertThat(log.messages(java.util.logging.Level.INFO))
                    .anySatisfy(m -> assertThat(m).contains("cannot schedule"))
                    .anySatisfy(m -> assertThat(m).contains("on a daemon thread of its own"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        assertThat(ownThreads()).isPositive();
    }

    @Test
    void noManagedScheduler_aThreadOfItsOwn() {
        schedule = JdbcPurgeScheduling.start(store, INTERVAL, container, "the container's");

        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        assertThat(ownThreads()).isPositive();
    }

    @Test
    void anIntervalOfZero_schedulesNothing() {
        container = Optional.of(managed);

        assertThat(JdbcPurgeScheduling.start(store, Duration.ZERO, container, "the container's"))
                .isEmpty();
        assertThat(managed.getQueue()).isEmpty();
    }

    private int rows() throws SQLException {
        try (Connection c = h2.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM idem")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private static long ownThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals("idemkit-jdbc-purge"))
                .count();
    }
}
