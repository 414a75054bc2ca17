package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/**
 * Turns a driver's {@link SQLException} into the one failure type of the SPI (C3), with the
 * driver's message but never the key, which some drivers echo in their messages.
 */
final class SqlFailures {

    private SqlFailures() {}

    /**
     * @param operation the store operation, such as {@code claim}
     * @param key the key it worked on, or {@code null}
     * @param e the driver's failure
     * @return the failure to throw
     */
    static IdempotencyStorageException failure(String operation, String key, SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (key != null) {
            message = message.replace(key, "<key>");
        }
        return new IdempotencyStorageException(
                kind(e),
                "JDBC store "
                        + operation
                        + " failed: "
                        + message
                        + " (SQLState "
                        + e.getSQLState()
                        + ", error "
                        + e.getErrorCode()
                        + ")",
                e);
    }

    /**
     * @param e a driver's failure
     * @return whether another transaction held what the statement needed: a lock wait past the
     *     store's bound ({@link LockWait}: PostgreSQL 55P03, MariaDB 1205, H2 50200 or 90131), a
     *     deadlock (40P01, MariaDB 1213) or a serialization failure (40001; MariaDB 1020 under
     *     {@code innodb_snapshot_isolation}). The database is up, nothing was written, and the key
     *     is busy: contention is never an outage (C4.6). H2 reports a row lock its insert or update
     *     waited for past {@code LOCK_TIMEOUT} as 90131 ("concurrent update"), not as its lock
     *     timeout 50200, which only table locks give.
     */
    static boolean isContention(SQLException e) {
        String state = e.getSQLState();
        int code = e.getErrorCode();
        return "40001".equals(state)
                || "40P01".equals(state)
                || "55P03".equals(state)
                || code == 1205
                || code == 1213
                || code == 1020
                || code == 50200
                || code == 90131;
    }

    private static IdempotencyStorageException.Kind kind(SQLException e) {
        String state = e.getSQLState();
        if (isContention(e)) {
            return IdempotencyStorageException.Kind.CONTENDED;
        }
        if (e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLTimeoutException
                || (state != null && state.startsWith("08"))) {
            return IdempotencyStorageException.Kind.UNREACHABLE;
        }
        return IdempotencyStorageException.Kind.FAILED;
    }
}
