package io.idemkit.store.jdbc;

import io.idemkit.core.LeaseHeartbeat;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * How long a statement of the store waits for a row lock, at most (C12). A completion inside a
 * business transaction (C13) holds its record's row until that transaction ends; a duplicate's
 * claim would wait for it on PostgreSQL without limit ({@code lock_timeout} 0) and on MariaDB for
 * {@code innodb_lock_wait_timeout} (50 s), holding a thread and a connection. Every statement the
 * store runs on its own connections that may wait for a row lock therefore waits {@link #BOUND} at
 * most, and fails with the database's lock timeout, which {@link SqlFailures} reads as contention:
 * the claim then answers from the row as committed ({@link ClaimSteps}), and the engine waits as
 * for any claim in flight, polling with reads that take no lock.
 *
 * <p>The bound is set for the one statement, never for the session, so that nothing of it stays on
 * a pooled connection another user of the data source may take, and it costs no round trip:
 *
 * <ul>
 *   <li>PostgreSQL: {@code SELECT set_config('lock_timeout', …, true); <statement>} in one prepared
 *       statement. The driver sends both in one round trip, and the server runs them in one
 *       transaction, to which the setting is local; inside an explicit transaction of the store
 *       (the attempt count) it lasts until that transaction ends.
 *   <li>MariaDB: {@code SET STATEMENT innodb_lock_wait_timeout = …, lock_wait_timeout = …,
 *       transaction_isolation = 'READ-COMMITTED' FOR <statement>}: row locks and metadata locks (a
 *       migration's {@code ALTER TABLE}), as {@code lock_timeout} bounds every lock on PostgreSQL;
 *       whole seconds, and 1 is the smallest the server takes. The same clause runs the statement
 *       at {@code READ COMMITTED} ({@link ReadCommitted}), so that it takes no gap locks; a server
 *       before 11.1 refuses the isolation there, and gets the lock bounds alone ({@link
 *       MariaDbServer}).
 *   <li>H2: its own {@code LOCK_TIMEOUT} (1 s unless the URL sets another).
 * </ul>
 *
 * 1 s: far above the time any store statement holds a row (one statement in auto-commit mode), so
 * that only a transaction held open around a record (C13) makes a statement wait that long; and far
 * below the default {@code idemkit.wait-timeout} (10 s), within which the engine claims again after
 * each bounded wait. The completion inside the business transaction runs without it: it is the
 * application's transaction, whose lock timeout is the application's.
 *
 * <p>That bound is the duplicates'. The owner's own writes of its claim, the completion, the
 * release and the renewal, wait longer ({@link JdbcStoreSettings#ownerLockTimeout()}, {@code
 * idemkit.jdbc.owner-lock-timeout}, default {@value JdbcStoreSettings#DEFAULT_OWNER_LOCK_TIMEOUT}):
 * no transaction of the store holds a claimed row for long, so what makes them wait is a lock on
 * the table (a migration's {@code ALTER TABLE}, MariaDB's backup locks), and a completion that gave
 * up after 1 s would drop its result, and a renewal lose its lease, where waiting a little longer
 * loses nothing: each is fenced by its token, so a claim taken over meanwhile still refuses it.
 */
final class LockWait {

    /** The longest a store statement waits for a row lock: {@value #SECONDS} s. */
    static final int SECONDS = 1;

    static final Duration BOUND = Duration.ofSeconds(SECONDS);

    private LockWait() {}

    /**
     * @param dialect the database
     * @param isolationVariable on MariaDB, the name of its isolation variable ({@link
     *     ReadCommitted#variable}), or {@code null} on a server that refuses it in {@code SET
     *     STATEMENT} ({@link MariaDbServer}); ignored elsewhere
     * @param sql a statement that may wait for a row lock
     * @return the statement with its wait bounded (on MariaDB, also at {@code READ COMMITTED}), to
     *     run with {@link #query} or {@link #update}
     */
    static String bounded(JdbcDialect dialect, String isolationVariable, String sql) {
        return bounded(dialect, isolationVariable, sql, BOUND);
    }

    /**
     * @param dialect the database
     * @param isolationVariable on MariaDB, the name of its isolation variable ({@link
     *     ReadCommitted#variable}), or {@code null} on a server that refuses it in {@code SET
     *     STATEMENT} ({@link MariaDbServer}); ignored elsewhere
     * @param sql a statement that may wait for a lock
     * @param bound the longest it waits: at least 1 ms; on MariaDB rounded up to whole seconds
     * @return the statement with its wait bounded (on MariaDB, also at {@code READ COMMITTED}), to
     *     run with {@link #query} or {@link #update}
     */
    static String bounded(
            JdbcDialect dialect, String isolationVariable, String sql, Duration bound) {
        long seconds = Math.max(1, (bound.toMillis() + 999) / 1000);
        return switch (dialect) {
            case POSTGRESQL ->
                    "SELECT set_config('lock_timeout', '" + bound.toMillis() + "ms', true); " + sql;
            case MARIADB ->
                    "SET STATEMENT innodb_lock_wait_timeout = "
                            + seconds
                            + ", lock_wait_timeout = "
                            + seconds
                            + (isolationVariable == null
                                    ? ""
                                    : ", " + ReadCommitted.setting(isolationVariable))
                            + " FOR "
                            + sql;
            case H2 -> sql;
        };
    }

    /**
     * @param dialect the database
     * @param ps a {@link #bounded} statement that returns rows
     * @return its rows
     */
    static ResultSet query(JdbcDialect dialect, PreparedStatement ps) throws SQLException {
        if (dialect != JdbcDialect.POSTGRESQL) {
            return ps.executeQuery();
        }
        ps.execute(); // the set_config's row
        if (!ps.getMoreResults()) {
            throw new SQLException("the JDBC store's statement returned no rows");
        }
        return ps.getResultSet();
    }

    /**
     * @param dialect the database
     * @param ps a {@link #bounded} statement that returns a count
     * @return the rows it changed
     */
    static int update(JdbcDialect dialect, PreparedStatement ps) throws SQLException {
        if (dialect != JdbcDialect.POSTGRESQL) {
            return ps.executeUpdate();
        }
        ps.execute(); // the set_config's row
        ps.getMoreResults();
        return ps.getUpdateCount();
    }

    /**
     * The longest query timeout a renewal carries: an hour. A lease of months has a renewal
     * deadline of weeks, which drivers cannot take (H2 turns the seconds into an int of
     * milliseconds), and no renewal needs an hour.
     */
    static final int MAX_RENEWAL_TIMEOUT_SECONDS = 3600;

    /**
     * @param leaseTtl the lease a renewal extends
     * @return the renewal statement's query timeout: the heartbeat's deadline for it, in whole
     *     seconds rounded up, at least one, at most {@value #MAX_RENEWAL_TIMEOUT_SECONDS}
     */
    static int renewalTimeoutSeconds(Duration leaseTtl) {
        Duration deadline = LeaseHeartbeat.renewalDeadline(LeaseHeartbeat.interval(leaseTtl));
        long seconds = deadline.toSeconds() + (deadline.toMillisPart() > 0 ? 1 : 0);
        return (int) Math.max(1, Math.min(MAX_RENEWAL_TIMEOUT_SECONDS, seconds));
    }
}
