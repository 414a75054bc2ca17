package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What the JDBC store checks of a MariaDB server when it starts, so that a server it cannot work on
 * fails the deployment with the reason and the change to make, instead of failing every claim with
 * an SQL error (C12):
 *
 * <ul>
 *   <li><b>MariaDB 10.5 or newer.</b> The claim is one {@code INSERT … RETURNING}, which MariaDB
 *       parses from 10.5 on.
 *   <li><b>No binary log in {@code STATEMENT} format.</b> InnoDB refuses every write at {@code READ
 *       COMMITTED}, the store's isolation ({@link ReadCommitted}), when the session logs statements
 *       (error 1665); {@code ROW} and {@code MIXED} (MariaDB's default) log the changed rows.
 *   <li><b>The isolation in {@code SET STATEMENT}.</b> MariaDB takes {@code transaction_isolation}
 *       in a {@code SET STATEMENT … FOR} from 11.1 on; older servers refuse their {@code
 *       tx_isolation} there (error 1971). On such a server the store's statements run at the
 *       isolation of the data source's connections, and the store says so once, unless those
 *       already run at {@code READ COMMITTED}: under {@code REPEATABLE READ} the purge's range scan
 *       takes gap locks that can make claims wait.
 * </ul>
 */
final class MariaDbServer {

    private static final System.Logger LOG = System.getLogger(MariaDbServer.class.getName());

    static final int OLDEST_MAJOR = 10;
    static final int OLDEST_MINOR = 5;

    /** MariaDB's {@code ER_SET_STATEMENT_NOT_SUPPORTED}. */
    static final int SET_STATEMENT_REFUSED = 1971;

    private MariaDbServer() {}

    /**
     * Checks the server behind {@code connection}.
     *
     * @param connection a connection of the store's data source, in auto-commit mode
     * @return the isolation variable the store's {@code SET STATEMENT} sets ({@link
     *     ReadCommitted#variable}), or {@code null} when the server refuses it there
     * @throws IdempotencyStorageException ({@link IdempotencyStorageException.Kind#REFUSED}) naming
     *     every problem found and the change that ends it, if the store cannot work on the server
     * @throws SQLException if the driver fails
     */
    static String check(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        List<String> problems = new ArrayList<>();
        String version = meta.getDatabaseProductVersion();
        if (tooOld(meta.getDatabaseMajorVersion(), meta.getDatabaseMinorVersion())) {
            problems.add(
                    "it needs MariaDB "
                            + OLDEST_MAJOR
                            + "."
                            + OLDEST_MINOR
                            + " or newer (a claim is one INSERT … RETURNING), and the server is "
                            + version
                            + ": upgrade it (10.6, 10.11, 11.4 and 11.8 are the long-term lines)");
        }
        if (logsStatements(connection)) {
            problems.add(
                    "the server writes its binary log in STATEMENT format (binlog_format ="
                            + " STATEMENT), in which InnoDB refuses writes at READ COMMITTED, the"
                            + " isolation of the store's statements (error 1665): set binlog_format"
                            + " = ROW (or MIXED, the default) in the server's configuration, or for"
                            + " the data source's sessions");
        }
        if (!problems.isEmpty()) {
            throw new IdempotencyStorageException(
                    IdempotencyStorageException.Kind.REFUSED,
                    "The JDBC store cannot work on this MariaDB server: "
                            + String.join("; and ", problems)
                            + ".",
                    null);
        }
        String variable = ReadCommitted.variable(meta);
        if (takesInSetStatement(connection, variable)) {
            return variable;
        }
        String isolation = sessionIsolation(connection);
        if (!"READ-COMMITTED".equalsIgnoreCase(isolation)) {
            LOG.log(
                    Level.WARNING,
                    "idemkit's JDBC store runs its statements at the data source's isolation ("
                            + isolation
                            + ") on this MariaDB server ("
                            + version
                            + "), which refuses "
                            + variable
                            + " in SET STATEMENT before MariaDB 11.1. Under REPEATABLE READ the"
                            + " purge's range scan takes gap locks, so that claims may wait for it"
                            + " and fail as contention. Set the store's data source to READ"
                            + " COMMITTED (Liberty: isolationLevel=\"TRANSACTION_READ_COMMITTED\""
                            + " on its <dataSource>; WildFly: <transaction-isolation>"
                            + "TRANSACTION_READ_COMMITTED</transaction-isolation>).");
        }
        return null;
    }

    static boolean tooOld(int major, int minor) {
        return major < OLDEST_MAJOR || (major == OLDEST_MAJOR && minor < OLDEST_MINOR);
    }

    private static boolean logsStatements(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet row = s.executeQuery("SELECT @@log_bin, @@SESSION.binlog_format")) {
            row.next();
            return row.getInt(1) == 1 && "STATEMENT".equalsIgnoreCase(row.getString(2));
        }
    }

    private static boolean takesInSetStatement(Connection connection, String variable)
            throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("SET STATEMENT " + ReadCommitted.setting(variable) + " FOR SELECT 1");
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == SET_STATEMENT_REFUSED) {
                return false;
            }
            throw e;
        }
    }

    private static String sessionIsolation(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet row = s.executeQuery("SELECT @@tx_isolation")) {
            row.next();
            return row.getString(1);
        }
    }
}
