package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A beat closed while its renewal runs, just before the completion inside the business transaction
 * (C13) locks the record's row until the commit, on a real PostgreSQL: the close waits for the
 * renewal (C4.7), so that the renewal ends, renewed, before the completion starts, rather than wait
 * behind that row lock and fail the lease of the operation that is completing; and the other leases
 * of the node are still renewed while the business transaction is open.
 */
class PostgresHeartbeatRowLockTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);

    private final DataSource dataSource = Databases.postgres();

    @Test
    void renewalRunningWhenTheBeatCloses_endsBeforeTheCompletion_andOtherLeasesStayRenewed()
            throws Exception {
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
        CountDownLatch gate = new CountDownLatch(1);
        try (Connection caller = dataSource.getConnection()) {
            caller.setAutoCommit(false);
            JdbcIdempotencyStore inTx =
                    new JdbcIdempotencyStore(
                            dataSource,
                            EnlistedConnections.of(() -> caller),
                            new JdbcStoreSettings(table, false));
            String key = "a".repeat(64);
            ClaimToken token = store.claim(key, FP, 1, LEASE).token();
            String otherKey = "b".repeat(64);
            ClaimToken otherToken = store.claim(otherKey, FP, 1, LEASE).token();
            CountDownLatch renewing = new CountDownLatch(1);
            List<String> order = new CopyOnWriteArrayList<>();
            AtomicReference<Object> renewed = new AtomicReference<>();
            LeaseHeartbeat.Beat beat =
                    heartbeat.start(
                            () -> {
                                renewing.countDown();
                                awaitUninterruptibly(gate);
                                try {
                                    renewed.set(store.renew(key, token, LEASE));
                                } catch (RuntimeException e) {
                                    renewed.set(e);
                                }
                                order.add("renewal ended");
                                return Boolean.TRUE.equals(renewed.get());
                            },
                            Duration.ofSeconds(1),
                            () -> {});
            assertThat(renewing.await(10, TimeUnit.SECONDS)).isTrue();

            AtomicBoolean completed = new AtomicBoolean();
            Thread operation =
                    new Thread(
                            () -> {
                                beat.close();
                                order.add("completion started");
                                completed.set(
                                        inTx.completeInTransaction(
                                                key,
                                                token,
                                                new StoredResult(200, List.of(), new byte[] {1}),
                                                Duration.ofHours(1)));
                            });
            operation.start();
            // The renewal reaches the database while the operation waits in close; a close that
            // does not wait lets the completion lock the row first.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    completed.get()
                                            || operation.getState() == Thread.State.TIMED_WAITING);
            gate.countDown();
            operation.join(10_000);
            assertThat(completed).isTrue();
            // A close that only cancels lets the completion lock the row first; the renewal then
            // waits behind that lock and fails the lease of the very operation that completes.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> order.contains("renewal ended"));
            assertThat(order).containsExactly("renewal ended", "completion started");
            assertThat(renewed).as("the renewal's answer").hasValue(true);

            AtomicInteger otherRenewals = new AtomicInteger();
            try (LeaseHeartbeat.Beat other =
                    heartbeat.start(
                            () ->
                                    store.renew(otherKey, otherToken, LEASE)
                                            && otherRenewals.incrementAndGet() > 0,
                            Duration.ofMillis(300),
                            () -> {})) {
                Awaitility.await()
                        .alias("another lease renewed while the business transaction is open")
                        .atMost(Duration.ofSeconds(10))
                        .until(() -> otherRenewals.get() >= 2);
            }
            caller.commit();
        } finally {
            gate.countDown();
            heartbeat.close();
            drop(table);
        }
    }

    private void drop(String table) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
