package io.idemkit.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The store's attempt counts ({@code countAttempt}, contract C11.3): one row per count in the
 * records' table, {@code state = 'ATTEMPTS'}, {@code attempts} the count and {@code lease_until}
 * its expiry, apart from every record (the caller derives its key so that it is never an effective
 * key; {@code find} reads such a row as no record). {@code purgeExpired} deletes it once expired;
 * until then, a count past its expiry by the database's clock, or one that is not a count, starts
 * over at 1.
 *
 * <p>Never a read then a write: add one to a live count and read it back in one short transaction,
 * under the row lock the add took; else start an expired or unreadable one over; else insert a new
 * one, and if another caller inserted it first (a duplicate key, or on PostgreSQL no row inserted),
 * count on theirs.
 */
final class AttemptRows {

    private static final int TRIES = 3;

    private AttemptRows() {}

    static long count(
            Connection c, JdbcDialect dialect, RecordStatements sql, String key, long retention)
            throws SQLException {
        for (int i = 0; i < TRIES; i++) {
            Long added = addOne(c, sql, key, retention);
            if (added != null) {
                return added;
            }
            if (update(c, sql, sql.countRestart, key, retention) == 1) {
                return 1;
            }
            try (PreparedStatement ps = c.prepareStatement(sql.countInsert)) {
                ps.setString(1, key);
                ps.setLong(2, retention);
                if (LockWait.update(dialect, ps) == 1) {
                    return 1;
                }
            } catch (SQLException e) {
                if (!dialect.isDuplicateKey(e)) {
                    throw e;
                }
            }
            // Another caller inserted it meanwhile: count on theirs.
        }
        throw new SQLException("the attempt count changed under " + TRIES + " tries in a row");
    }

    private static Long addOne(Connection c, RecordStatements sql, String key, long retention)
            throws SQLException {
        c.setAutoCommit(false);
        try {
            Long count = null;
            if (update(c, sql, sql.countUp, key, retention) == 1) {
                try (PreparedStatement ps = c.prepareStatement(sql.selectCount)) {
                    ps.setString(1, key);
                    try (ResultSet rows = ps.executeQuery()) {
                        rows.next();
                        count = rows.getLong(1);
                    }
                }
            }
            c.commit();
            return count;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static int update(
            Connection c, RecordStatements sql, String statement, String key, long retention)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setLong(1, retention);
            ps.setString(2, key);
            return LockWait.update(sql.dialect, ps);
        }
    }
}
