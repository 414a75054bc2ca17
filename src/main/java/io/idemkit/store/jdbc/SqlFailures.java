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

    private static IdempotencyStorageException.Kind kind(SQLException e) {
        String state = e.getSQLState();
        if (e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLTimeoutException
                || (state != null && state.startsWith("08"))) {
            return IdempotencyStorageException.Kind.UNREACHABLE;
        }
        return IdempotencyStorageException.Kind.FAILED;
    }
}
