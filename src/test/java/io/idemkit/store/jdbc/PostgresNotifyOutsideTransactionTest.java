package io.idemkit.store.jdbc;

import static io.idemkit.store.jdbc.WakeUpTiming.EVENTUALLY;
import static io.idemkit.store.jdbc.WakeUpTiming.FP;
import static io.idemkit.store.jdbc.WakeUpTiming.LEASE;
import static io.idemkit.store.jdbc.WakeUpTiming.PAUSE;
import static io.idemkit.store.jdbc.WakeUpTiming.RESULT;
import static io.idemkit.store.jdbc.WakeUpTiming.WAIT;
import static io.idemkit.store.jdbc.WakeUpTiming.WOKEN_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.store.CompletionPoll;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import javax.sql.XAConnection;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.xa.PGXADataSource;

/**
 * The JDBC store's notifications on PostgreSQL never run inside a transaction that writes a record
 * (C12, C13), on a real PostgreSQL 14 of this class's own, which takes prepared transactions
 * ({@code max_prepared_transactions}) and names a synchronous standby that never connects, so that
 * a session with {@code synchronous_commit=on} stalls in its commit (every other session runs at
 * {@code local}, the server's default here, and never waits for it).
 *
 * <ul>
 *   <li>A completion inside a JTA transaction (C13) with a second XA resource, a MariaDB branch,
 *       prepares and commits in two phases as a transaction manager runs them: PostgreSQL refuses
 *       to {@code PREPARE TRANSACTION} a transaction that executed {@code NOTIFY}. Once it
 *       committed, the store is told, and a waiter on another instance is woken.
 *   <li>A stalled notifying commit elsewhere on the server holds the notification queue's lock, as
 *       a notifying commit does until its commit is flushed: the store's own completion and release
 *       still succeed, though their notification cannot be sent.
 * </ul>
 *
 * How a notification is told from a poll: instance B's poll pauses a minute, as in {@code
 * PostgresWakeUpTest}.
 */
class PostgresNotifyOutsideTransactionTest {

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private String table;
    private HikariDataSource poolA;
    private WatchedReads watchedB;
    private JdbcIdempotencyStore a;
    private JdbcIdempotencyStore b;

    @BeforeEach
    void twoInstances() {
        table = JdbcStoreContract.freshTable();
        poolA = Server.pool();
        opened.add(poolA);
        HikariDataSource poolB = Server.pool();
        opened.add(poolB);
        watchedB = new WatchedReads(poolB);
        a = new JdbcIdempotencyStore(poolA, new JdbcStoreSettings(table, true));
        a.start();
        opened.add(a);
        b =
                new JdbcIdempotencyStore(
                        watchedB.dataSource(),
                        null,
                        new JdbcStoreSettings(table, false),
                        CompletionListener.IDLE_PERIOD,
                        new CompletionPoll(PAUSE, PAUSE));
        b.start();
        opened.add(b);
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        Server.stop();
    }

    @Test
    void completionInAnXaTransactionWithASecondResource_preparesAndCommits_andWakesTheWaiter()
            throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Waiter waiter = waiterOnBInItsPause(key);
        String businessTable = "business_" + UUID.randomUUID().toString().replace("-", "");
        DataSource maria = Databases.mariaDb();
        execute(maria, "CREATE TABLE " + businessTable + " (id INTEGER)");
        opened.add(() -> execute(maria, "DROP TABLE " + businessTable));

        XAConnection pgXa = postgresXa().getXAConnection();
        opened.add(pgXa::close);
        XAConnection mariaXa = mariaDbXa().getXAConnection();
        opened.add(mariaXa::close);
        Connection pg = pgXa.getConnection();
        JdbcIdempotencyStore inTx =
                new JdbcIdempotencyStore(
                        poolA,
                        EnlistedConnections.of(() -> pg),
                        new JdbcStoreSettings(table, false));
        opened.add(inTx);
        byte[] global = UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
        Xid pgBranch = new TestXid(global, 1);
        Xid mariaBranch = new TestXid(global, 2);
        XAResource pgResource = pgXa.getXAResource();
        XAResource mariaResource = mariaXa.getXAResource();

        pgResource.start(pgBranch, XAResource.TMNOFLAGS);
        mariaResource.start(mariaBranch, XAResource.TMNOFLAGS);
        assertThat(inTx.completeInTransaction(key, claim.token(), RESULT, LEASE)).isTrue();
        try (Statement s = mariaXa.getConnection().createStatement()) {
            s.executeUpdate("INSERT INTO " + businessTable + " VALUES (1)");
        }
        pgResource.end(pgBranch, XAResource.TMSUCCESS);
        mariaResource.end(mariaBranch, XAResource.TMSUCCESS);
        assertThat(pgResource.prepare(pgBranch))
                .as("PostgreSQL's branch")
                .isEqualTo(XAResource.XA_OK);
        assertThat(mariaResource.prepare(mariaBranch)).isEqualTo(XAResource.XA_OK);
        pgResource.commit(pgBranch, false);
        mariaResource.commit(mariaBranch, false);
        // What the engine does once the transaction committed (Execution.confirmCommitted).
        inTx.completionCommitted(key);

        Optional<IdempotencyRecord> found =
                assertThat(waiter.result())
                        .as("woken, its poll pausing %s", PAUSE)
                        .succeedsWithin(WOKEN_WITHIN)
                        .actual();
        assertThat(found.orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(watchedB.reads()).as("its first read, and the one it was woken to").isEqualTo(2);
        try (Connection c = maria.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + businessTable)) {
            rows.next();
            assertThat(rows.getInt(1)).as("the other branch committed too").isEqualTo(1);
        }
    }

    @Test
    void notificationQueueLockHeldByAStalledCommit_completionAndReleaseStillSucceed()
            throws Exception {
        String completed = key();
        ClaimResult completedClaim = a.claim(completed, FP, 1, LEASE);
        String released = key();
        ClaimResult releasedClaim = a.claim(released, FP, 1, LEASE);
        int stalled = stalledNotifyingCommit();

        try {
            assertThat(a.complete(completed, completedClaim.token(), RESULT, LEASE))
                    .as("the completion, its notification unsendable meanwhile")
                    .isTrue();
            assertThat(a.release(released, releasedClaim.token())).isTrue();
            assertThat(lockHolder()).as("the stall lasted throughout").isEqualTo(stalled);
        } finally {
            execute(poolA, "SELECT pg_cancel_backend(" + stalled + ")");
        }
        assertThat(a.find(completed).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(a.find(released)).isEmpty();
    }

    /**
     * A session that notifies and stalls in its commit, waiting for the standby that never
     * connects, while it holds the notification queue's lock.
     *
     * @return its backend's pid, once it holds the lock
     */
    private int stalledNotifyingCommit() throws Exception {
        Connection c = Server.SERVER.getPostgresDatabase().getConnection();
        opened.add(c);
        int pid;
        try (Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            pid = rows.getInt(1);
        }
        execute(c, "SET synchronous_commit = on");
        c.setAutoCommit(false);
        // A write, so that the commit writes a record to the log and waits for the standby.
        execute(c, "CREATE TEMPORARY TABLE idemkit_stall (id INTEGER)");
        execute(c, "NOTIFY idemkit_test_stall");
        threads.submit(
                () -> {
                    c.commit();
                    return null;
                });
        await().atMost(EVENTUALLY).until(() -> lockHolder() == pid);
        return pid;
    }

    /**
     * @return the pid of the backend that holds the notification queue's lock (PostgreSQL's lock on
     *     "database 0"), or 0
     */
    private int lockHolder() throws SQLException {
        try (Connection c = poolA.getConnection();
                Statement s = c.createStatement();
                ResultSet rows =
                        s.executeQuery(
                                "SELECT COALESCE(MAX(pid), 0) FROM pg_locks WHERE locktype ="
                                        + " 'object' AND classid = 'pg_database'::regclass AND"
                                        + " objid = 0 AND granted")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** B listens, and its listener's own wake-up of every waiter is spent (PostgresWakeUpTest). */
    private void bListens() throws InterruptedException {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(b.awaitCompletion(key, WAIT)).isPresent();
        await().atMost(EVENTUALLY)
                .until(() -> "listening".equals(b.health().details().get("notifications")));
    }

    private record Waiter(Future<Optional<IdempotencyRecord>> result) {}

    private Waiter waiterOnBInItsPause(String key) throws InterruptedException {
        Map<Integer, CountDownLatch> reads = watchedB.watchFor(1);
        Future<Optional<IdempotencyRecord>> result =
                threads.submit(() -> b.awaitCompletion(key, WAIT));
        assertThat(reads.get(1).await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter's first read")
                .isTrue();
        return new Waiter(result);
    }

    private static PGXADataSource postgresXa() {
        PGXADataSource xa = new PGXADataSource();
        xa.setUrl(Server.URL);
        xa.setUser("postgres");
        xa.setPassword("postgres");
        return xa;
    }

    private static MariaDbDataSource mariaDbXa() throws SQLException {
        HikariDataSource pool = (HikariDataSource) Databases.mariaDb();
        MariaDbDataSource xa = new MariaDbDataSource(pool.getJdbcUrl());
        xa.setUser(pool.getUsername());
        xa.setPassword(pool.getPassword());
        return xa;
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            execute(c, sql);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "").repeat(2);
    }

    /**
     * A transaction branch's id, as a transaction manager makes one: one global id, two branches.
     */
    private record TestXid(byte[] global, int branch) implements Xid {
        @Override
        public int getFormatId() {
            return 4660;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return global.clone();
        }

        @Override
        public byte[] getBranchQualifier() {
            return new byte[] {(byte) branch};
        }
    }

    /** This class's own PostgreSQL, started on first use. */
    private static final class Server {
        static final EmbeddedPostgres SERVER =
                TestPorts.start(
                        "PostgreSQL",
                        port ->
                                EmbeddedPostgres.builder()
                                        .setPort(port)
                                        .setServerConfig("listen_addresses", "127.0.0.1")
                                        .setServerConfig("max_connections", "40")
                                        .setServerConfig("max_prepared_transactions", "10")
                                        .setServerConfig(
                                                "synchronous_standby_names",
                                                "idemkit_never_connects")
                                        .setServerConfig("synchronous_commit", "local")
                                        .start());
        static final String URL = SERVER.getJdbcUrl("postgres", "postgres");

        static HikariDataSource pool() {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(URL);
            config.setUsername("postgres");
            config.setPassword("postgres");
            config.setMaximumPoolSize(4);
            config.setPoolName("idemkit-test-" + UUID.randomUUID());
            return new HikariDataSource(config);
        }

        static void stop() throws Exception {
            SERVER.close();
        }
    }
}
