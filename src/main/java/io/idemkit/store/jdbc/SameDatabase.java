package io.idemkit.store.jdbc;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * How the library knows that the JDBC store's data source and the business one reach one database
 * (C13): their connections report the same JDBC URL and the same user. A record completed on
 * another database would commit apart from the business writes, which is what the option exists to
 * prevent.
 */
final class SameDatabase {

    private static final System.Logger LOG = System.getLogger(SameDatabase.class.getName());

    private SameDatabase() {}

    /**
     * @return why the two data sources are not known to reach one database; empty when they are, or
     *     when either cannot be reached now (logged, and the store checks nothing more later)
     */
    static Optional<String> problem(DataSource store, DataSource business) {
        String storeSide;
        String businessSide;
        try {
            storeSide = identity(store);
            businessSide = identity(business);
        } catch (SQLException e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit could not check that "
                            + JdbcKeys.TRANSACTION_DATASOURCE
                            + " reaches the JDBC store's database: "
                            + e.getMessage());
            return Optional.empty();
        }
        if (Objects.equals(storeSide, businessSide)) {
            return Optional.empty();
        }
        return Optional.of(
                JdbcKeys.TRANSACTION_DATASOURCE
                        + " reaches "
                        + businessSide
                        + ", and the JDBC store's data source "
                        + storeSide
                        + ": a record completed inside the business transaction must be written"
                        + " to the database of the business writes. Point both at one database,"
                        + " as one user.");
    }

    private static String identity(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            return meta.getURL() + " as " + meta.getUserName();
        }
    }
}
