package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.store.StoreResources;
import java.lang.System.Logger.Level;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Opens the JDBC store at deployment ({@code idemkit.store=jdbc}, C12): finds its data source (the
 * JNDI name {@code idemkit.jdbc.datasource}, else the application's one {@code DataSource} bean)
 * and starts the store, which refuses a database it does not support and a missing or wrong table
 * with the DDL to run. Each of these fails the deployment. A database that cannot be reached now
 * only logs a warning: the store connects again on its first operation, and the readiness check
 * reports it down until then. A database that cannot take a body of {@code idemkit.max-body-bytes}
 * in one statement (MariaDB's {@code max_allowed_packet}) is warned of.
 */
final class JdbcStoreOpening {

    private static final System.Logger LOG = System.getLogger(JdbcStoreOpening.class.getName());

    private JdbcStoreOpening() {}

    /** A started store, or the deployment problem that stopped it. */
    record Opened(JdbcIdempotencyStore store, String problem) {}

    static Opened open(JdbcStoreSettings settings, int maxBodyBytes, StoreResources resources) {
        DataSource dataSource;
        try {
            dataSource =
                    settings.dataSourceName() != null
                            ? lookUpOrDefer(JdbcKeys.DATASOURCE, settings.dataSourceName())
                            : bean(resources);
        } catch (IllegalStateException e) {
            return new Opened(null, e.getMessage());
        }
        DataSource transactional = null;
        if (settings.transactionDataSourceName() != null) {
            try {
                transactional =
                        lookUp(
                                JdbcKeys.TRANSACTION_DATASOURCE,
                                settings.transactionDataSourceName());
            } catch (IllegalStateException e) {
                return new Opened(null, e.getMessage());
            }
            Optional<String> apart = SameDatabase.problem(dataSource, transactional);
            if (apart.isPresent()) {
                return new Opened(null, apart.get());
            }
        }
        JdbcIdempotencyStore store = new JdbcIdempotencyStore(dataSource, transactional, settings);
        try {
            store.start();
            if (store.largestStorableBody() < maxBodyBytes) {
                LOG.log(
                        Level.WARNING,
                        "idemkit.max-body-bytes="
                                + maxBodyBytes
                                + ", but the JDBC store is sure to store bodies of at most "
                                + store.largestStorableBody()
                                + " bytes on this "
                                + store.databaseProduct()
                                + " server (its max_allowed_packet, with room for the driver's"
                                + " escaping): the store refuses larger results, which are"
                                + " delivered but not stored (complete_failed), so a retry"
                                + " after the lease runs them again. Raise max_allowed_packet to at"
                                + " least 2 × idemkit.max-body-bytes + 64 KiB, or lower"
                                + " idemkit.max-body-bytes.");
            }
        } catch (IdempotencyStorageException e) {
            if (e.kind() != IdempotencyStorageException.Kind.UNREACHABLE) {
                return new Opened(null, "idemkit.store=jdbc: " + e.getMessage());
            }
            LOG.log(
                    Level.WARNING,
                    "idemkit's JDBC store cannot reach its database now; it checks the database"
                            + " and its table on first use. "
                            + e.getMessage());
        }
        return new Opened(store, null);
    }

    /**
     * The store's data source; one in the application's own namespace that JNDI does not have yet
     * is looked up on first use ({@link JndiDataSource}), with a warning, instead of failing the
     * deployment. A server-defined name that is missing still fails it.
     */
    private static DataSource lookUpOrDefer(String key, String name) {
        try {
            return lookUp(key, name);
        } catch (IllegalStateException e) {
            if (!JndiDataSource.isApplicationName(name)) {
                throw e;
            }
            LOG.log(
                    Level.WARNING,
                    "idemkit's JDBC store will look up "
                            + key
                            + "="
                            + name
                            + " on first use: it is not in JNDI yet while the deployment is"
                            + " validated (Payara binds a data source the application defines"
                            + " later). Until it is found, the store reports its database as"
                            + " unreachable.");
            return new JndiDataSource(name);
        }
    }

    private static DataSource lookUp(String key, String name) {
        Object found;
        try {
            found = new InitialContext().lookup(name);
        } catch (NamingException e) {
            throw new IllegalStateException(
                    "idemkit.store=jdbc: "
                            + key
                            + "="
                            + name
                            + " is not found in JNDI ("
                            + e.getMessage()
                            + ").");
        }
        if (!(found instanceof DataSource dataSource)) {
            throw new IllegalStateException(
                    "idemkit.store=jdbc: "
                            + key
                            + "="
                            + name
                            + " names a "
                            + (found == null ? "null" : found.getClass().getName())
                            + ", not a javax.sql.DataSource.");
        }
        return dataSource;
    }

    private static DataSource bean(StoreResources resources) {
        StoreResources.Count found = resources.resolvable(DataSource.class);
        if (found == StoreResources.Count.SEVERAL) {
            throw new IllegalStateException(
                    "idemkit.store=jdbc, but there are several DataSource beans: set "
                            + JdbcKeys.DATASOURCE
                            + " to a JNDI name to choose.");
        }
        if (found == StoreResources.Count.NONE) {
            throw new IllegalStateException(
                    "idemkit.store=jdbc needs "
                            + JdbcKeys.DATASOURCE
                            + " (a JNDI name) or a DataSource bean; none is there.");
        }
        return resources.resolve(DataSource.class);
    }
}
