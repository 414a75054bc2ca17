package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.idemkit.store.jdbc.PurgeSchedule;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.MapJndi;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import javax.naming.Context;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the scheduled purge runs ({@code idemkit.jdbc.purge-interval}, C12): on the runtime's
 * default managed scheduled executor when JNDI has one, which it leaves running when it stops; on a
 * thread of its own when JNDI has none, or the executor refuses the schedule. A JNDI provider of
 * the test's own binds a real {@link ScheduledThreadPoolExecutor} under the Jakarta EE name.
 */
class JdbcPurgeSchedulingTest {

    private static final Duration INTERVAL = Duration.ofMillis(50);

    private final ScheduledThreadPoolExecutor managed = new ScheduledThreadPoolExecutor(1);
    private JdbcDataSource h2;
    private JdbcIdempotencyStore store;
    private Optional<PurgeSchedule> schedule = Optional.empty();

    @BeforeEach
    void storeWithExpiredRows() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, MapJndi.class.getName());
        h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:purge-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = new JdbcIdempotencyStore(h2, new JdbcStoreSettings("idem", true));
        store.claim("a".repeat(64), "fp", 1, Duration.ofMillis(1));
        store.claim("b".repeat(64), "fp", 1, Duration.ofMillis(1));
    }

    @AfterEach
    void stop() throws SQLException {
        schedule.ifPresent(PurgeSchedule::close);
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        MapJndi.BOUND.clear();
        managed.shutdownNow();
        try (Connection c = h2.getConnection();
                Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void aManagedSchedulerInJndi_runsThePurge_andIsLeftRunningWhenItStops() {
        MapJndi.BOUND.put(ManagedScheduler.JNDI_NAME, managed);

        schedule = JdbcPurgeScheduling.start(store, INTERVAL);

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
        MapJndi.BOUND.put(ManagedScheduler.JNDI_NAME, managed);

        try (CapturedLog log = CapturedLog.of(JdbcPurgeScheduling.class)) {
            schedule = JdbcPurgeScheduling.start(store, INTERVAL);

            assertThat(log.messages(java.util.logging.Level.INFO))
                    .anySatisfy(m -> assertThat(m).contains("cannot schedule"))
                    .anySatisfy(m -> assertThat(m).contains("on a daemon thread of its own"));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        assertThat(ownThreads()).isPositive();
    }

    @Test
    void noManagedSchedulerInJndi_aThreadOfItsOwn() {
        schedule = JdbcPurgeScheduling.start(store, INTERVAL);

        await().atMost(Duration.ofSeconds(10)).until(() -> rows() == 0);
        assertThat(ownThreads()).isPositive();
    }

    @Test
    void anIntervalOfZero_schedulesNothing() {
        MapJndi.BOUND.put(ManagedScheduler.JNDI_NAME, managed);

        assertThat(JdbcPurgeScheduling.start(store, Duration.ZERO)).isEmpty();
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
