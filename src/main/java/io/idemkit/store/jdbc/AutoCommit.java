package io.idemkit.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** The store's own connections run each statement in a transaction of its own (C12). */
final class AutoCommit {

    private AutoCommit() {}

    /**
     * @param c a connection of the store's data source
     * @return {@code c}, in auto-commit mode
     * @throws SQLException when it refuses auto-commit (it is enlisted in a JTA transaction);
     *     {@code c} is then closed
     */
    static Connection on(Connection c) throws SQLException {
        try {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw new SQLException(
                    "the JDBC store needs a connection in auto-commit mode, and this data source's"
                            + " connection refused it; is it enlisted in a JTA transaction? Give"
                            + " the store a non-transactional data source. "
                            + e.getMessage(),
                    e.getSQLState(),
                    e.getErrorCode(),
                    e);
        }
    }
}
