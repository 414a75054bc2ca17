package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
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
                                                    store,
                                                    dataSource,
                                                    current,
                                                    business,
                                                    key,
                                                    thread,
                                                    fenced);
                                        }
                                        return null;
                                    }));
                }
                for (Future<?> run : runs) {
                    run.get(5, TimeUnit.MINUTES);
                }
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

    private static void runUntilCompleted(
            JdbcIdempotencyStore store,
            DataSource dataSource,
            ThreadLocal<Connection> current,
            String business,
            String key,
            int thread,
            AtomicInteger fenced)
            throws SQLException, InterruptedException {
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
                        try (PreparedStatement ps =
                                c.prepareStatement("INSERT INTO " + business + " VALUES (?, ?)")) {
                            ps.setString(1, key);
                            ps.setInt(2, thread);
                            ps.executeUpdate();
                        }
                        Thread.sleep(ThreadLocalRandom.current().nextInt(41));
                        StoredResult result = new StoredResult(200, List.of(), body(thread));
                        if (store.completeInTransaction(
                                key, claim.token(), result, Duration.ofHours(1))) {
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

    private static byte[] body(int thread) {
        return ByteBuffer.allocate(4).putInt(thread).array();
    }

    private static List<Integer> businessRows(DataSource dataSource, String business, String key)
            throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT thread FROM " + business + " WHERE idem_key = ?")) {
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
