package io.idemkit.store.jdbc;

import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * What differs between the databases the JDBC store accepts (C12): how each reads its own clock,
 * compares a value that may be {@code NULL}, inserts a row only if its key is absent without a
 * duplicate-key error that would abort a PostgreSQL transaction, and reports a duplicate key. Only
 * dialects proven by the store contract suite on a real server are here; every other database is
 * refused when the store starts.
 *
 * <p>Every time the store stores is a {@code BIGINT} of milliseconds since the epoch, computed by
 * the database in the statement that uses it: no JVM clock, no JDBC time zone conversion.
 */
enum JdbcDialect {

    /**
     * PostgreSQL 12 or newer. {@code clock_timestamp()}, since {@code now()} is frozen at the start
     * of a transaction; as a scalar subquery it is read once per statement. The claim is one
     * statement: insert with {@code ON CONFLICT DO NOTHING}, or read the row that is there.
     */
    POSTGRESQL(
            "PostgreSQL",
            "(SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT))",
            "postgresql.sql") {
        @Override
        String nullSafeEquals(String column) {
            return column + " IS NOT DISTINCT FROM ?";
        }

        @Override
        boolean isDuplicateKey(SQLException e) {
            return "23505".equals(e.getSQLState());
        }
    },

    /**
     * H2 2.x. Every date and time function of H2 ({@code CURRENT_TIMESTAMP}, {@code
     * LOCALTIMESTAMP}, {@code NOW()}) keeps, in its default mode, the value of its first use in the
     * transaction: in the store's own statements, each in a transaction of its own, that is the
     * statement's start, but it would stamp a completion inside a long business transaction (C13)
     * with the time of an earlier statement. So that completion's clock ({@link
     * #inTransactionNowMillis}) is the start of the statement that runs, from the session's own row
     * of {@code INFORMATION_SCHEMA.SESSIONS}, which every user may read. Only there: H2 2.3.232
     * builds that table from every session's transaction, and under sixteen racing claims it once
     * failed with a {@code NullPointerException} of its own ("this.transaction is null"). An
     * inserted row's dates are read back with {@code FINAL TABLE}; a duplicate key fails the
     * statement only, never the transaction. The claim takes two statements when the key is there:
     * the insert, then a {@code SELECT}.
     */
    H2("H2", "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)", "h2.sql") {
        @Override
        String inTransactionNowMillis() {
            return "(SELECT CAST(FLOOR(EXTRACT(EPOCH FROM EXECUTING_STATEMENT_START) * 1000) AS"
                    + " BIGINT) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID = SESSION_ID())";
        }

        @Override
        String nullSafeEquals(String column) {
            return column + " IS NOT DISTINCT FROM ?";
        }

        @Override
        boolean isDuplicateKey(SQLException e) {
            return "23505".equals(e.getSQLState());
        }

        @Override
        boolean claimsInOneStatement() {
            return false;
        }
    },

    /**
     * MariaDB 10.5 or newer ({@code INSERT … RETURNING}). {@code UTC_TIMESTAMP(6)} is read once per
     * statement and, unlike {@code NOW()} through {@code UNIX_TIMESTAMP}, knows no session time
     * zone or daylight saving. A duplicate key fails the statement only, never the transaction
     * (InnoDB rolls back the statement). {@code INSERT IGNORE} is not used: it would turn other
     * errors into warnings.
     */
    MARIADB(
            "MariaDB",
            "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)",
            "mariadb.sql") {
        @Override
        String nullSafeEquals(String column) {
            return column + " <=> ?";
        }

        @Override
        boolean isDuplicateKey(SQLException e) {
            return e.getErrorCode() == 1062;
        }
    };

    private final String productName;
    private final String nowMillis;
    private final String ddlResource;

    JdbcDialect(String productName, String nowMillis, String ddlResource) {
        this.productName = productName;
        this.nowMillis = nowMillis;
        this.ddlResource = ddlResource;
    }

    /**
     * @param productName {@code DatabaseMetaData.getDatabaseProductName()}
     * @return the dialect of that database, or empty when the store does not support it
     */
    static Optional<JdbcDialect> of(String productName) {
        String name = productName == null ? "" : productName.trim().toLowerCase(Locale.ROOT);
        for (JdbcDialect dialect : values()) {
            if (name.equals(dialect.productName.toLowerCase(Locale.ROOT))) {
                return Optional.of(dialect);
            }
        }
        return Optional.empty();
    }

    /**
     * @return the database's product name as its driver reports it
     */
    String productName() {
        return productName;
    }

    /**
     * @return an SQL expression of the database's current time in epoch milliseconds
     */
    String nowMillis() {
        return nowMillis;
    }

    /**
     * @return an SQL expression of the database's current time in epoch milliseconds at the start
     *     of the statement that runs, also late in a long transaction: the clock of the completion
     *     inside the business transaction (C13)
     */
    String inTransactionNowMillis() {
        return nowMillis;
    }

    /**
     * @return the name of the DDL resource beside this class
     */
    String ddlResource() {
        return ddlResource;
    }

    /**
     * @param column a column name
     * @return a condition true when the column equals the parameter, both {@code NULL} included
     */
    abstract String nullSafeEquals(String column);

    /**
     * @param e a failure of an insert
     * @return whether the insert failed because the key is there
     */
    abstract boolean isDuplicateKey(SQLException e);

    /**
     * @return whether one statement inserts a claim or returns the row that is there ({@link
     *     RecordStatements#insertOrSelectClaim}); otherwise the insert fails on a duplicate key and
     *     a {@code SELECT} follows
     */
    boolean claimsInOneStatement() {
        return true;
    }
}
