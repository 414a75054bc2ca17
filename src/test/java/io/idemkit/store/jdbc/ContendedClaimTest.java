package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A claim that meets a record's row held by another transaction, on a real PostgreSQL and MariaDB
 * and on H2 (C12, C13): the completion inside a business transaction locks the row until the
 * commit, and a duplicate's claim must neither hang on it nor be taken for an outage. The store
 * bounds its lock wait ({@link LockWait}); a claim that runs into the bound answers "in progress"
 * from the row as committed, and a contended claim never runs the operation unprotected, even under
 * {@code on-storage-error=fail-open} (C4.6).
 */
class ContendedClaimTest {

    private static final String FP = "f".repeat(64);
    private static final String KEY = "c".repeat(64);
    private static final StoredResult RESULT = new StoredResult(200, List.of(), new byte[] {1});

    /** Well above the store's lock wait, well below PostgreSQL's none and MariaDB's 50 s. */
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Connection> business = new CopyOnWriteArrayList<>();
    private DataSource dataSource;
    private String table;

    @AfterEach
    void endTransactionsAndDropTheTable() throws SQLException {
        for (Connection c : business) {
            c.rollback();
            c.close();
        }
        threads.shutdownNow();
        if (table != null) {
            try (Connection c = dataSource.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + table);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void duplicateClaim_whileACompletionHoldsTheRow_answersInProgressWithinTheBound(
            JdbcDialect dialect) throws Exception {
        Connection open = openTransaction(dialect);
        JdbcIdempotencyStore store = store(open);
        ClaimResult first = store.claim(KEY, FP, 1, Duration.ofMinutes(1));
        assertThat(store.completeInTransaction(KEY, first.token(), RESULT, Duration.ofHours(1)))
                .isTrue();

        Future<ClaimResult> duplicate =
                threads.submit(() -> store.claim(KEY, FP, 1, Duration.ofMinutes(1)));

        await().atMost(BOUND).until(duplicate::isDone);
        ClaimResult answer = duplicate.get();
        assertThat(answer.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(answer.record().token()).isEqualTo(first.token());
        assertThat(answer.record().fingerprint()).isEqualTo(FP);

        open.commit();
        assertThat(store.claim(KEY, FP, 1, Duration.ofMinutes(1)).status())
                .as("once the transaction committed")
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void duplicateClaim_ofALapsedLeaseWhoseRowIsHeld_answersInProgressAndTakesNothingOver(
            JdbcDialect dialect) throws Exception {
        Connection open = openTransaction(dialect);
        JdbcIdempotencyStore store = store(open);
        ClaimResult first = store.claim(KEY, FP, 1, Duration.ofMillis(1));
        assertThat(store.completeInTransaction(KEY, first.token(), RESULT, Duration.ofHours(1)))
                .isTrue();
        await().until(() -> store.now().isAfter(first.record().leaseUntil()));

        Future<ClaimResult> duplicate =
                threads.submit(() -> store.claim(KEY, FP, 1, Duration.ofMinutes(1)));

        await().atMost(BOUND).until(duplicate::isDone);
        assertThat(duplicate.get().status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        open.commit();
        assertThat(store.find(KEY).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void contendedClaim_underFailOpen_isInProgress_neverRunsUnprotected(JdbcDialect dialect)
            throws Exception {
        // A row another transaction inserted and has not committed: the claim waits on it, runs
        // into the store's lock wait, and finds no committed row to answer with.
        Connection open = openTransaction(dialect);
        JdbcIdempotencyStore store = store(open);
        store.start();
        try (PreparedStatement ps =
                open.prepareStatement(
                        "INSERT INTO " + table + " (idem_key, state) VALUES (?, 'CLAIMED')")) {
            ps.setString(1, KEY);
            ps.executeUpdate();
        }
        List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();
        IdempotencyEngine engine =
                new IdempotencyEngine(
                        store, events::add, new LeaseHeartbeat(false), Ticker.system());
        OperationPolicy failOpen =
                new OperationPolicy(
                        Duration.ofMinutes(1),
                        Duration.ofHours(1),
                        Duration.ofSeconds(2),
                        StorageErrorMode.FAIL_OPEN,
                        CacheableStatuses.parse("2xx"));

        Future<Admission> admission =
                threads.submit(() -> engine.admit(new Operation(KEY, FP, 1, failOpen, "method")));

        await().atMost(BOUND).until(admission::isDone);
        IdempotencyInProgressException inProgress =
                catchThrowableOfType(
                        IdempotencyInProgressException.class,
                        () -> {
                            try {
                                admission.get(0, TimeUnit.SECONDS);
                            } catch (java.util.concurrent.ExecutionException e) {
                                throw e.getCause();
                            }
                        });
        assertThat(inProgress).as("in progress, not run unprotected").isNotNull();
        assertThat(events.stream().map(IdempotencyEvent::decision))
                .doesNotContain(Decision.RAN_UNPROTECTED)
                .endsWith(Decision.CONFLICT);
    }

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"POSTGRESQL", "MARIADB"})
    void theBoundAndTheIsolation_stayOnTheStatement_notOnThePooledSession(JdbcDialect dialect)
            throws SQLException {
        dataSource = Databases.of(dialect);
        table = JdbcStoreContract.freshTable();
        try (Connection session = dataSource.getConnection()) {
            String before = sessionSettings(dialect, session);
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(
                            EnlistedConnections.of(() -> session),
                            new JdbcStoreSettings(table, true));
            ClaimResult claim = store.claim(KEY, FP, 1, Duration.ofMinutes(1));
            store.renew(KEY, claim.token(), Duration.ofMinutes(1));
            store.complete(KEY, claim.token(), RESULT, Duration.ofHours(1));
            store.countAttempt("a".repeat(64), Duration.ofHours(1));
            store.purgeExpired();

            assertThat(sessionSettings(dialect, session)).isEqualTo(before);
        }
    }

    private static String sessionSettings(JdbcDialect dialect, Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                java.sql.ResultSet rows =
                        s.executeQuery(
                                dialect == JdbcDialect.POSTGRESQL
                                        ? "SHOW lock_timeout"
                                        : "SELECT CONCAT(@@SESSION.innodb_lock_wait_timeout,"
                                                + " ' ', @@SESSION.transaction_isolation)")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private Connection openTransaction(JdbcDialect dialect) throws SQLException {
        dataSource = Databases.of(dialect);
        table = JdbcStoreContract.freshTable();
        Connection c = dataSource.getConnection();
        c.setAutoCommit(false);
        business.add(c);
        return c;
    }

    private JdbcIdempotencyStore store(Connection open) {
        return new JdbcIdempotencyStore(
                dataSource, EnlistedConnections.of(() -> open), new JdbcStoreSettings(table, true));
    }
}
