package io.idemkit.store.jdbc;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.jdbc.*} keys of the JDBC store, with their defaults: declared in its wing, so
 * that a store brings its keys with it ({@link #all()}, which its factory hands the unknown-key
 * check).
 */
public final class JdbcKeys {

    /**
     * The JNDI name of the JDBC store's data source, not enlisted in JTA transactions; unset, the
     * application's one {@code DataSource} bean.
     */
    public static final String DATASOURCE = ConfigKeys.PREFIX + "jdbc.datasource";

    /**
     * The JNDI name of the application's JTA data source on the JDBC store's database, for {@code
     * completion=in-transaction} (C13); unset, no method can complete inside its transaction.
     */
    public static final String TRANSACTION_DATASOURCE =
            ConfigKeys.PREFIX + "jdbc.transaction-datasource";

    /** The JDBC store's table, optionally schema-qualified. */
    public static final String TABLE = ConfigKeys.PREFIX + "jdbc.table";

    /** Default of {@link #TABLE}. */
    public static final String TABLE_DEFAULT = "idemkit_records";

    /** Whether the JDBC store creates a missing table at deployment, for development. */
    public static final String CREATE_TABLE = ConfigKeys.PREFIX + "jdbc.create-table";

    /** Default of {@link #CREATE_TABLE}. */
    public static final String CREATE_TABLE_DEFAULT = "false";

    /** How often the JDBC store purges expired rows on its own (a duration; zero for never). */
    public static final String PURGE_INTERVAL = ConfigKeys.PREFIX + "jdbc.purge-interval";

    /** Default of {@link #PURGE_INTERVAL}: off. */
    public static final String PURGE_INTERVAL_DEFAULT = "0s";

    /**
     * Whether the JDBC store on PostgreSQL wakes the waiters of other instances with {@code
     * LISTEN}/{@code NOTIFY} (C4.3, C12); MariaDB and H2 always poll.
     */
    public static final String NOTIFICATIONS = ConfigKeys.PREFIX + "jdbc.notifications";

    /** Default of {@link #NOTIFICATIONS}. */
    public static final String NOTIFICATIONS_DEFAULT = "true";

    /** How long the JDBC store's completion, release and renewal wait for a lock (a duration). */
    public static final String OWNER_LOCK_TIMEOUT = ConfigKeys.PREFIX + "jdbc.owner-lock-timeout";

    /** Default of {@link #OWNER_LOCK_TIMEOUT}. */
    public static final String OWNER_LOCK_TIMEOUT_DEFAULT = "5s";

    /**
     * The longest one JDBC store call waits for its database to answer on a read (a duration; 0
     * leaves the driver's own socket timeout alone).
     */
    public static final String NETWORK_TIMEOUT = ConfigKeys.PREFIX + "jdbc.network-timeout";

    /** Default of {@link #NETWORK_TIMEOUT}. */
    public static final String NETWORK_TIMEOUT_DEFAULT = "5s";

    /** The longest pause of a JDBC store waiter's poll, doubling from 10 ms (C4.3; ≥ 1 ms). */
    public static final String POLL_LONGEST_PAUSE = ConfigKeys.PREFIX + "jdbc.poll-longest-pause";

    /** Default of {@link #POLL_LONGEST_PAUSE}. */
    public static final String POLL_LONGEST_PAUSE_DEFAULT = "500ms";

    private JdbcKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(JdbcKeys.class);
    }
}
