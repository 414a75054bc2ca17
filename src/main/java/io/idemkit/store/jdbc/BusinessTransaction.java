package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the completion inside the business transaction (C13) needs of its connection, asked of the
 * database before anything is written; a connection that lacks it is refused ({@link
 * IdempotencyStorageException.Kind#REFUSED REFUSED}), and the business transaction rolls back with
 * the record still {@code CLAIMED}.
 *
 * <ol>
 *   <li><b>A transaction.</b> A connection in auto-commit mode would commit the completion on its
 *       own, and if the business transaction then failed, every retry would replay a result whose
 *       writes never happened. {@link Connection#getAutoCommit()} cannot say it portably: Open
 *       Liberty reports auto-commit on a JTA data source's connection inside a global transaction.
 *       So the database is asked. PostgreSQL: {@code txid_current()} gives the statement's
 *       transaction an id, and a second statement's {@code txid_current_if_assigned()} is that id
 *       only inside the same transaction (asked only when the driver reports auto-commit). MariaDB:
 *       {@code @@autocommit} is 0 in a local transaction, {@code @@in_transaction} 1 in an XA one.
 *       H2, a development database, is not asked.
 *   <li><b>An isolation level at which the lease heartbeat cannot fail it.</b> While the operation
 *       runs, the heartbeat renews the record's row on the store's own connection and commits. At
 *       PostgreSQL's {@code REPEATABLE READ} or {@code SERIALIZABLE}, at MariaDB's {@code
 *       REPEATABLE READ} with {@code innodb_snapshot_isolation=ON} (the default from MariaDB
 *       11.6.2), and at H2's {@code REPEATABLE READ}, {@code SNAPSHOT} or {@code SERIALIZABLE}, the
 *       completion's {@code UPDATE} of a row changed after the transaction's snapshot fails with a
 *       serialization error (40001, MariaDB 1020, H2 90131), although the lease was never lost (H2
 *       takes a table's snapshot at the transaction's first read of it, so there it fails or not by
 *       timing). Those levels are refused with a message that names the fix, rather than failing
 *       business transactions at random. MariaDB's {@code SERIALIZABLE} (whose reads lock instead)
 *       completes: {@code BusinessTransactionTest} runs every level.
 * </ol>
 *
 * One round trip (two on PostgreSQL when the driver reports auto-commit), once per completion.
 */
final class BusinessTransaction {

    private BusinessTransaction() {}

    /**
     * @param c the connection of {@code idemkit.jdbc.transaction-datasource} the completion is to
     *     run on
     * @param dialect its database
     * @throws IdempotencyStorageException {@code REFUSED}, nothing written, when {@code c} is in no
     *     transaction or at an isolation level the completion cannot hold at
     * @throws SQLException when the database cannot be asked
     */
    static void requireUsable(Connection c, JdbcDialect dialect) throws SQLException {
        switch (dialect) {
            case POSTGRESQL -> postgres(c);
            case MARIADB -> mariaDb(c);
            case H2 -> h2(c);
        }
    }

    private static void postgres(Connection c) throws SQLException {
        String xid;
        String isolation;
        try (Statement s = c.createStatement();
                ResultSet rows =
                        s.executeQuery(
                                "SELECT txid_current()::text,"
                                        + " current_setting('transaction_isolation')")) {
            rows.next();
            xid = rows.getString(1);
            isolation = rows.getString(2);
        }
        if (c.getAutoCommit()) {
            try (Statement s = c.createStatement();
                    ResultSet rows = s.executeQuery("SELECT txid_current_if_assigned()::text")) {
                rows.next();
                if (!xid.equals(rows.getString(1))) {
                    throw notInATransaction();
                }
            }
        }
        if (isolation.equals("repeatable read") || isolation.equals("serializable")) {
            throw isolationRefused(
                    isolation.toUpperCase(Locale.ROOT),
                    "PostgreSQL",
                    "the completion's UPDATE then fails with 'could not serialize access due to"
                            + " concurrent update' (40001)");
        }
    }

    private static void mariaDb(Connection c) throws SQLException {
        // information_schema rather than @@ names: tx_isolation became transaction_isolation, and
        // innodb_snapshot_isolation is absent before 10.6.18 and 11.4.2.
        Map<String, String> variables = new HashMap<>();
        try (Statement s = c.createStatement();
                ResultSet rows =
                        s.executeQuery(
                                "SELECT VARIABLE_NAME, VARIABLE_VALUE FROM"
                                        + " information_schema.SESSION_VARIABLES WHERE"
                                        + " VARIABLE_NAME IN ('AUTOCOMMIT', 'IN_TRANSACTION',"
                                        + " 'TX_ISOLATION', 'TRANSACTION_ISOLATION',"
                                        + " 'INNODB_SNAPSHOT_ISOLATION')")) {
            while (rows.next()) {
                variables.put(
                        rows.getString(1).toUpperCase(Locale.ROOT),
                        String.valueOf(rows.getString(2)).toUpperCase(Locale.ROOT));
            }
        }
        boolean autoCommit = "ON".equals(variables.get("AUTOCOMMIT"));
        boolean inTransaction = "1".equals(variables.get("IN_TRANSACTION"));
        if (autoCommit && !inTransaction) {
            throw notInATransaction();
        }
        String isolation =
                variables.getOrDefault(
                        "TRANSACTION_ISOLATION", variables.getOrDefault("TX_ISOLATION", ""));
        boolean snapshot = "ON".equals(variables.get("INNODB_SNAPSHOT_ISOLATION"));
        if (snapshot && isolation.equals("REPEATABLE-READ")) {
            throw isolationRefused(
                    isolation.replace('-', ' ') + " with innodb_snapshot_isolation=ON",
                    "MariaDB",
                    "the completion's UPDATE then fails with 'Record has changed since last read'"
                            + " (1020); innodb_snapshot_isolation=OFF avoids it too");
        }
    }

    private static void h2(Connection c) throws SQLException {
        String isolation;
        try (Statement s = c.createStatement();
                ResultSet rows =
                        s.executeQuery(
                                "SELECT ISOLATION_LEVEL FROM INFORMATION_SCHEMA.SESSIONS"
                                        + " WHERE SESSION_ID = SESSION_ID()")) {
            rows.next();
            isolation = rows.getString(1);
        }
        if (isolation.equals("REPEATABLE READ")
                || isolation.equals("SNAPSHOT")
                || isolation.equals("SERIALIZABLE")) {
            throw isolationRefused(
                    isolation,
                    "H2",
                    "the completion's UPDATE then fails with a concurrent update error (90131)");
        }
    }

    private static IdempotencyStorageException notInATransaction() {
        return new IdempotencyStorageException(
                IdempotencyStorageException.Kind.REFUSED,
                "JDBC store refused to complete a record inside the transaction (C13): the"
                        + " connection of idemkit.jdbc.transaction-datasource is in no transaction"
                        + " (auto-commit), so the completion would commit on its own, apart from"
                        + " the business writes. Name a JTA data source there (Open Liberty:"
                        + " transactional=\"true\", the default; WildFly: jta=\"true\"; Payara: a"
                        + " pool whose connections are not non-transactional), not the store's own.",
                null);
    }

    private static IdempotencyStorageException isolationRefused(
            String isolation, String database, String failure) {
        return new IdempotencyStorageException(
                IdempotencyStorageException.Kind.REFUSED,
                "JDBC store refused to complete a record inside the transaction (C13): the"
                        + " transaction runs at "
                        + isolation
                        + " on "
                        + database
                        + ". The lease heartbeat renews the record's row while the operation runs,"
                        + " and "
                        + failure
                        + ", although the lease was never lost. Run the data source of"
                        + " idemkit.jdbc.transaction-datasource at READ COMMITTED (Open Liberty:"
                        + " isolationLevel=\"TRANSACTION_READ_COMMITTED\"; WildFly:"
                        + " <transaction-isolation>TRANSACTION_READ_COMMITTED</transaction-isolation>;"
                        + " Payara: transaction-isolation-level=\"read-committed\").",
                null);
    }
}
