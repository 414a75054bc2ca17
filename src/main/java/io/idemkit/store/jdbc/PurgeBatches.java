package io.idemkit.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The purge of expired rows ({@link JdbcIdempotencyStore#purgeExpired()}) in batches, each a
 * statement that commits on its own, until a batch comes back short: one unbounded {@code DELETE}
 * would hold the locks of every row it deletes until it ends, blocking renewals and completions of
 * those rows meanwhile. On PostgreSQL a batch skips the rows another transaction holds ({@code SKIP
 * LOCKED}); on MariaDB it runs at {@code READ COMMITTED}, so that it locks no gap a new claim
 * inserts into ({@link ReadCommitted}). Which rows are expired is {@link RecordStatements#purge}'s.
 */
final class PurgeBatches {

    private PurgeBatches() {}

    /**
     * @param c a connection in auto-commit mode
     * @param sql the statements
     * @param batchSize the most rows one statement deletes
     * @return how many rows were deleted
     */
    static long run(Connection c, RecordStatements sql, int batchSize) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.purge)) {
            ps.setInt(1, batchSize);
            long purged = 0;
            int batch;
            do {
                batch = LockWait.update(sql.dialect, ps);
                purged += batch;
            } while (batch == batchSize);
            return purged;
        }
    }
}
