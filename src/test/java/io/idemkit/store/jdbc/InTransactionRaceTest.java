package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.RacingThreads;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Completion inside the business transaction (C13) under a race, on each database. Eight threads
 * run each key as eight clients retrying one operation would, on a lease of 20 ms: a thread that
 * claims the key (new or taken over) opens a business transaction, writes a business row with no
 * unique constraint, holds the transaction for 0 to 40 ms, so that the lease often runs out and
 * another thread takes the key over meanwhile, then completes the record on the same connection: it
 * commits when the completion updated the record and rolls back when the fence refused it (what the
 * interceptor does by marking the transaction rollback-only), and tries again. A thread that finds
 * the key claimed tries again; one that finds it completed stops.
 *
 * <p>Whatever the interleaving, each key ends with exactly one business row and a completed record
 * whose result is the one that row's thread wrote; the fence must have refused some completions, or
 * the race did not test it.
 */
class InTransactionRaceTest {

    private static final int THREADS = 8;
    private static final int KEYS = 60;
    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMillis(20);

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void leasesRunningOutMidTransaction_leaveOneBusinessRowAndItsResultPerKey(JdbcDialect dialect)
            throws Exception {
        race(dialect, null, new AtomicInteger());
    }

    /**
     * The same race with the lease heartbeat on, as the interceptor runs it, and business
     * transactions that read before they write: every claimer renews its lease every 7 ms on the
     * store's own connection while its transaction is open, except one in two, whose heartbeat
     * stalls (a long GC pause, say), so that takeovers still happen; each closes its beat before
     * the completion. Renewals that commit on the record's row while business transactions are
     * open, and renewals that meet a completion's row lock, must change nothing of the outcome.
     */
    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void withTheHeartbeatOn_andReadsBeforeWrites_oneBusinessRowAndItsResultPerKey(
            JdbcDialect dialect) throws Exception {
        LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
        AtomicInteger renewals = new AtomicInteger();
        try {
            race(dialect, heartbeat, renewals);
        } finally {
            heartbeat.close();
        }
        assertThat(renewals.get())
                .as("renewals while business transactions were open")
                .isPositive();
    }

    private static void race(JdbcDialect dialect, LeaseHeartbeat heartbeat, AtomicInteger renewals)
            throws Exception {
        DataSource dataSource = Databases.of(dialect);
        String table = JdbcStoreContract.freshTable();
        String business = table + "_orders";
        ThreadLocal<Connection> current = new ThreadLocal<>();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        dataSource,
                        EnlistedConnections.of(current::get),
                        new JdbcStoreSettings(table, true));
        AtomicInteger fenced = new AtomicInteger();
        try {
            store.start();
            execute(dataSource, "CREATE TABLE " + business + " (idem_key VARCHAR(64), thread INT)");
            List<String> keys = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                keys.add(String.format("%064d", k));
            }

            CyclicBarrier barrier = new CyclicBarrier(THREADS);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    runs.add(
                            pool.submit(
                                    () -> {
                                        for (String key : keys) {
                                            barrier.await(30, TimeUnit.SECONDS);
                                            runUntilCompleted(
                                                    new Run(
                                                            store,
                                                            dataSource,
                                                            current,
                                                            business,
                                                            heartbeat,
                                                            renewals,
                                                            fenced),
                                                    key,
                                                    thread);
                                        }
                                        return null;
                                    }));
                }
                RacingThreads.awaitAll(runs);
            } finally {
                pool.shutdownNow();
            }

            for (String key : keys) {
                List<Integer> rows = businessRows(dataSource, business, key);
                assertThat(rows).as("business rows of %s", key).hasSize(1);
                IdempotencyRecord record = store.find(key).orElseThrow();
                assertThat(record.state()).isEqualTo(RecordState.COMPLETED);
                assertThat(record.result().body()).isEqualTo(body(rows.get(0)));
            }
            assertThat(fenced.get()).as("completions the fence refused").isPositive();
        } finally {
            execute(dataSource, "DROP TABLE IF EXISTS " + business);
            execute(dataSource, "DROP TABLE " + table);
        }
    }

    /** What every run of the race shares; {@code heartbeat} is {@code null} when it is off. */
    private record Run(
            JdbcIdempotencyStore store,
            DataSource dataSource,
            ThreadLocal<Connection> current,
            String business,
            LeaseHeartbeat heartbeat,
            AtomicInteger renewals,
            AtomicInteger fenced) {}

    private static void runUntilCompleted(Run run, String key, int thread)
            throws SQLException, InterruptedException {
        JdbcIdempotencyStore store = run.store();
        DataSource dataSource = run.dataSource();
        ThreadLocal<Connection> current = run.current();
        String business = run.business();
        AtomicInteger fenced = run.fenced();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            ClaimResult claim;
            try {
                claim = store.claim(key, FP, 1, LEASE);
            } catch (IdempotencyStorageException e) {
                if (e.kind() != IdempotencyStorageException.Kind.CONTENDED) {
                    throw e;
                }
                continue; // asked again, as the engine does (C4.6)
            }
            switch (claim.status()) {
                case ALREADY_COMPLETED -> {
                    return;
                }
                case ALREADY_CLAIMED -> Thread.sleep(1 + ThreadLocalRandom.current().nextInt(5));
                case NEW, LEASE_RECLAIMED -> {
                    try (Connection c = dataSource.getConnection()) {
                        c.setAutoCommit(false);
                        current.set(c);
                        try (LeaseHeartbeat.Beat beat = beat(run, key, claim)) {
                            if (run.heartbeat() != null) {
                                businessRows(c, business, key); // a read before the write
                            }
                            try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "INSERT INTO " + business + " VALUES (?, ?)")) {
                                ps.setString(1, key);
                                ps.setInt(2, thread);
                                ps.executeUpdate();
                            }
                            Thread.sleep(ThreadLocalRandom.current().nextInt(41));
                        }
                        StoredResult result = new StoredResult(200, List.of(), body(thread));
                        boolean completed;
                        try {
                            completed =
                                    store.completeInTransaction(
                                            key, claim.token(), result, Duration.ofHours(1));
                        } catch (IdempotencyStorageException e) {
                            if (e.kind() != IdempotencyStorageException.Kind.CONTENDED) {
                                throw e;
                            }
                            // A fenced completion waited past the bound on the row of the one
                            // that won and has not committed yet (H2 on a loaded machine): the
                            // interceptor rolls the transaction back, as for any store failure.
                            c.rollback();
                            continue;
                        }
                        if (completed) {
                            c.commit();
                            return;
                        }
                        c.rollback();
                        fenced.incrementAndGet();
                    } finally {
                        current.remove();
                    }
                }
            }
        }
        throw new AssertionError(key + " was not completed within 60 s");
    }

    /** A beat renewing the claim every 7 ms, or none: when the heartbeat is off or stalls. */
    private static LeaseHeartbeat.Beat beat(Run run, String key, ClaimResult claim) {
        if (run.heartbeat() == null || ThreadLocalRandom.current().nextBoolean()) {
            return null;
        }
        return run.heartbeat()
                .start(
                        () -> {
                            boolean renewed = run.store().renew(key, claim.token(), LEASE);
                            run.renewals().incrementAndGet();
                            return renewed;
                        },
                        Duration.ofMillis(7),
                        () -> {},
                        false);
    }

    private static byte[] body(int thread) {
        return ByteBuffer.allocate(4).putInt(thread).array();
    }

    private static List<Integer> businessRows(DataSource dataSource, String business, String key)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return businessRows(c, business, key);
        }
    }

    private static List<Integer> businessRows(Connection c, String business, String key)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT thread FROM " + business + " WHERE idem_key = ?")) {
            ps.setString(1, key);
            List<Integer> threads = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    threads.add(rs.getInt(1));
                }
            }
            return threads;
        }
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
