package io.idemkit.store.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;

/**
 * The isolation level of the store's own statements on MariaDB: {@code READ COMMITTED}, set for
 * each statement in the same {@code SET STATEMENT … FOR} as its lock wait ({@link LockWait}), never
 * for the session, so that nothing of it stays on a pooled connection another user of the data
 * source may take (C12).
 *
 * <p>Why: under InnoDB's default {@code REPEATABLE READ}, a statement that scans a range locks
 * every index record it reads with a next-key lock, the record and the gap before it, and also the
 * gap after the last match. The purge's {@code DELETE … WHERE lease_until <= now ORDER BY
 * lease_until LIMIT n} then locks the gap between the last expired row and the first live one,
 * where every new claim's {@code lease_until} lands: claims wait for the purge's statement to end,
 * and past {@link LockWait#BOUND} fail as contention. Under {@code READ COMMITTED} InnoDB takes no
 * gap locks for searches and index scans, and releases the locks of scanned rows that do not match.
 * The store's statements lose nothing by it: each is one statement in auto-commit mode (the attempt
 * count's short transaction reads back only the row it updated), and every decision is a condition
 * of the writing statement itself, decided under the row's lock. InnoDB still takes gap locks for
 * duplicate-key checks, which the claim's insert needs.
 *
 * <p>PostgreSQL takes no gap locks at any level, and runs at the session's level ({@code READ
 * COMMITTED} by default); H2 runs at the session's level too. The completion inside the business
 * transaction (C13) runs at the application's level: it is the application's transaction.
 */
final class ReadCommitted {

    /** The name of the isolation variable from MariaDB 11.1 on. */
    static final String VARIABLE = "transaction_isolation";

    /**
     * Its name before MariaDB 11.1, which later versions take with a deprecation warning. Servers
     * before 11.1 refuse it in {@code SET STATEMENT} ({@link MariaDbServer}).
     */
    static final String OLD_VARIABLE = "tx_isolation";

    private ReadCommitted() {}

    /**
     * @param meta the database's metadata
     * @return the name of the isolation variable on that server: {@value #VARIABLE} on MariaDB 11.1
     *     or newer, else {@value #OLD_VARIABLE}
     */
    static String variable(DatabaseMetaData meta) throws SQLException {
        return variable(meta.getDatabaseMajorVersion(), meta.getDatabaseMinorVersion());
    }

    /**
     * @param major the server's major version
     * @param minor its minor version
     * @return {@value #VARIABLE} from 11.1 on, else {@value #OLD_VARIABLE}
     */
    static String variable(int major, int minor) {
        return major > 11 || (major == 11 && minor >= 1) ? VARIABLE : OLD_VARIABLE;
    }

    /**
     * @param variable {@link #variable}
     * @return the assignment of {@code READ COMMITTED} to it, for {@code SET STATEMENT}
     */
    static String setting(String variable) {
        return variable + " = 'READ-COMMITTED'";
    }
}
