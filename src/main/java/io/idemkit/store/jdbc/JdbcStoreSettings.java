package io.idemkit.store.jdbc;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The settings of a {@link JdbcIdempotencyStore} (C12).
 *
 * @param dataSourceName the JNDI name of the data source ({@code idemkit.jdbc.datasource}), or
 *     {@code null} for the application's {@code DataSource} bean; the store itself is given its
 *     data source and ignores this
 * @param table the table of records, optionally schema-qualified ({@code idemkit.schema_name}):
 *     letters, digits and underscores, each part starting with a letter or underscore, at most 63
 *     characters a part; default {@value #DEFAULT_TABLE}
 * @param createTable whether the store creates the table (and its index) when it is missing, for
 *     development; default {@code false}, so that a missing table fails the deployment with the DDL
 *     to run
 * @param transactionDataSourceName the JNDI name of the application's JTA data source on the same
 *     database ({@code idemkit.jdbc.transaction-datasource}), on which records complete inside the
 *     business transaction (C13); {@code null} when none is configured
 * @param purgeInterval how often the library purges expired rows on its own ({@code
 *     idemkit.jdbc.purge-interval}, {@link PurgeSchedule}); {@link Duration#ZERO}, the default, for
 *     never; the store itself ignores it
 * @param notifications whether, on PostgreSQL, completions, releases and deletes notify the other
 *     store instances on the database and each instance listens, so that their waiters wake at once
 *     ({@code idemkit.jdbc.notifications}, C4.3); default {@code true}; ignored on MariaDB and H2,
 *     which poll
 * @param ownerLockTimeout how long the owner's own writes of its claim (the completion, the
 *     release, the renewal) wait for a lock ({@code idemkit.jdbc.owner-lock-timeout}, {@link
 *     LockWait}): from the duplicates' 1 s to 1 h; default {@value #DEFAULT_OWNER_LOCK_TIMEOUT}; on
 *     MariaDB rounded up to whole seconds
 * @param pollLongestPause the longest pause of a duplicate's poll of its record while it waits
 *     ({@code idemkit.jdbc.poll-longest-pause}, C4.3): it pauses 10 ms (or this, if shorter),
 *     doubling up to this; default {@value #DEFAULT_POLL_LONGEST_PAUSE_MILLIS} ms; at least 1 ms
 * @param networkTimeout the longest one of the store's calls waits for its database to answer on a
 *     read ({@code idemkit.jdbc.network-timeout}, {@link NetworkBound}): a stalled connection fails
 *     the call after it instead of holding its thread; the owner's completion and release wait at
 *     least the owner's lock timeout and 1 s more, a renewal at most its deadline and 1 s more;
 *     {@link Duration#ZERO} leaves the driver's own socket timeout alone; else from 2 s to 1 h;
 *     default {@value #DEFAULT_NETWORK_TIMEOUT}
 */
public record JdbcStoreSettings(
        String dataSourceName,
        String table,
        boolean createTable,
        String transactionDataSourceName,
        Duration purgeInterval,
        boolean notifications,
        Duration ownerLockTimeout,
        Duration pollLongestPause,
        Duration networkTimeout) {

    /** The default table name: {@value}. */
    public static final String DEFAULT_TABLE = "idemkit_records";

    /** The default of {@link #ownerLockTimeout()}: {@value}. */
    public static final String DEFAULT_OWNER_LOCK_TIMEOUT = "5s";

    private static final Duration OWNER_LOCK_TIMEOUT = Duration.ofSeconds(5);

    /** Far above any lock a store should wait for, and far below PostgreSQL's limit (24 days). */
    private static final Duration LONGEST_OWNER_LOCK_TIMEOUT = Duration.ofHours(1);

    /** The default of {@link #networkTimeout()}: {@value}, as {@code idemkit.mongo.timeout}. */
    public static final String DEFAULT_NETWORK_TIMEOUT = "5s";

    private static final Duration NETWORK_TIMEOUT = Duration.ofSeconds(5);

    /** A read that waits the duplicates' lock bound (1 s) still answers within it. */
    private static final Duration SHORTEST_NETWORK_TIMEOUT = Duration.ofSeconds(2);

    /** The default longest pause of a waiter's poll, in milliseconds: {@value}. */
    public static final long DEFAULT_POLL_LONGEST_PAUSE_MILLIS = 500;

    private static final Duration DEFAULT_POLL_LONGEST_PAUSE =
            Duration.ofMillis(DEFAULT_POLL_LONGEST_PAUSE_MILLIS);

    private static final Pattern TABLE =
            Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

    /**
     * Validates the table name.
     *
     * @param dataSourceName the JNDI name of the data source ({@code idemkit.jdbc.datasource}), or
     *     {@code null} for the application's {@code DataSource} bean; the store itself is given its
     *     data source and ignores this
     * @param table the table of records, optionally schema-qualified
     * @param createTable whether the store creates a missing table
     * @param transactionDataSourceName the JNDI name of the business JTA data source, or {@code
     *     null}
     * @param purgeInterval how often the library purges expired rows, zero for never
     * @param notifications whether PostgreSQL's {@code LISTEN}/{@code NOTIFY} wakes waiters
     * @param ownerLockTimeout how long the owner's own writes wait for a lock, from 1 s to 1 h
     * @param pollLongestPause the longest pause of a waiter's poll, at least 1 ms
     * @param networkTimeout the longest a store call waits for the database on a read, zero for the
     *     driver's own, else from 2 s to 1 h
     * @throws IllegalArgumentException if the table name is not a plain SQL identifier, the purge
     *     interval is negative or under 1 ms but zero, the owner's lock timeout or the network
     *     timeout out of range, the poll's longest pause under 1 ms, a name is blank, or both data
     *     sources have one name (C13: the store's data source is not enlisted, so a completion on
     *     it would commit apart from the business writes)
     */
    public JdbcStoreSettings {
        Objects.requireNonNull(ownerLockTimeout, "ownerLockTimeout");
        if (ownerLockTimeout.compareTo(LockWait.BOUND) < 0
                || ownerLockTimeout.compareTo(LONGEST_OWNER_LOCK_TIMEOUT) > 0) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.owner-lock-timeout="
                            + ownerLockTimeout
                            + ": must be from 1s (the duplicates' bound) to 1h");
        }
        Objects.requireNonNull(networkTimeout, "networkTimeout");
        if (!networkTimeout.isZero()
                && (networkTimeout.compareTo(SHORTEST_NETWORK_TIMEOUT) < 0
                        || networkTimeout.compareTo(LONGEST_OWNER_LOCK_TIMEOUT) > 0)) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.network-timeout="
                            + networkTimeout
                            + ": must be zero (the driver's own socket timeout) or from 2s to 1h");
        }
        if (transactionDataSourceName != null && transactionDataSourceName.isBlank()) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.transaction-datasource="
                            + transactionDataSourceName
                            + ": must not be blank");
        }
        if (dataSourceName != null && dataSourceName.isBlank()) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.datasource=" + dataSourceName + ": must not be blank");
        }
        if (transactionDataSourceName != null
                && transactionDataSourceName.trim().equals(trimmed(dataSourceName))) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.transaction-datasource="
                            + transactionDataSourceName
                            + ": must not be idemkit.jdbc.datasource as well. The store's data"
                            + " source is not enlisted in JTA transactions, so a record completed"
                            + " on it would commit on its own, apart from the business writes"
                            + " (C13); name the JTA data source of the business writes");
        }
        Objects.requireNonNull(purgeInterval, "purgeInterval");
        if (purgeInterval.isNegative()
                || (!purgeInterval.isZero() && purgeInterval.toMillis() == 0)) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.purge-interval="
                            + purgeInterval
                            + ": must be zero (off) or at least 1ms");
        }
        Objects.requireNonNull(pollLongestPause, "pollLongestPause");
        if (pollLongestPause.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.poll-longest-pause="
                            + pollLongestPause
                            + ": must be at least 1ms");
        }
        Objects.requireNonNull(table, "table");
        if (!TABLE.matcher(table).matches()) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.table="
                            + table
                            + ": must be a table name, optionally schema-qualified, of letters,"
                            + " digits and underscores");
        }
    }

    private static String trimmed(String name) {
        return name == null ? null : name.trim();
    }

    /**
     * Settings without a data source name, nor a purge schedule, with notifications on and every
     * timeout at its default.
     *
     * @param table the table of records, optionally schema-qualified
     * @param createTable whether the store creates a missing table
     */
    public JdbcStoreSettings(String table, boolean createTable) {
        this(
                null,
                table,
                createTable,
                null,
                Duration.ZERO,
                true,
                OWNER_LOCK_TIMEOUT,
                DEFAULT_POLL_LONGEST_PAUSE,
                NETWORK_TIMEOUT);
    }

    /**
     * @return the table {@value #DEFAULT_TABLE}, not created by the store, no data source name
     */
    public static JdbcStoreSettings defaults() {
        return new JdbcStoreSettings(DEFAULT_TABLE, false);
    }

    /**
     * @param name the JNDI name of the data source, or {@code null}
     * @return these settings with another data source name
     */
    public JdbcStoreSettings withDataSourceName(String name) {
        return toBuilder().dataSourceName(name).build();
    }

    /**
     * @param newTable the table name
     * @return these settings with another table
     */
    public JdbcStoreSettings withTable(String newTable) {
        return toBuilder().table(newTable).build();
    }

    /**
     * @param create whether the store creates a missing table
     * @return these settings with another create-table choice
     */
    public JdbcStoreSettings withCreateTable(boolean create) {
        return toBuilder().createTable(create).build();
    }

    /**
     * @param name the JNDI name of the business JTA data source, or {@code null}
     * @return these settings with another transaction data source name
     */
    public JdbcStoreSettings withTransactionDataSourceName(String name) {
        return toBuilder().transactionDataSourceName(name).build();
    }

    /**
     * @param interval how often the library purges expired rows, zero for never
     * @return these settings with another purge interval
     */
    public JdbcStoreSettings withPurgeInterval(Duration interval) {
        return toBuilder().purgeInterval(interval).build();
    }

    /**
     * @param on whether PostgreSQL's {@code LISTEN}/{@code NOTIFY} wakes waiters across instances
     * @return these settings with notifications on or off
     */
    public JdbcStoreSettings withNotifications(boolean on) {
        return toBuilder().notifications(on).build();
    }

    /**
     * @param timeout how long the owner's own writes wait for a lock, from 1 s to 1 h
     * @return these settings with another owner's lock timeout
     */
    public JdbcStoreSettings withOwnerLockTimeout(Duration timeout) {
        return toBuilder().ownerLockTimeout(timeout).build();
    }

    /**
     * @param longest the longest pause of a waiter's poll, at least 1 ms
     * @return these settings with another longest pause
     */
    public JdbcStoreSettings withPollLongestPause(Duration longest) {
        return toBuilder().pollLongestPause(longest).build();
    }

    /**
     * @param timeout the longest a store call waits for the database on a read, zero for the
     *     driver's own, else from 2 s to 1 h
     * @return these settings with another network timeout
     */
    public JdbcStoreSettings withNetworkTimeout(Duration timeout) {
        return toBuilder().networkTimeout(timeout).build();
    }

    /**
     * @return a builder of settings, starting from {@link #defaults()}
     */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /**
     * @return a builder of settings, starting from these
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Settings built one component at a time, validated by {@link #build()}: the way to make them
     * that keeps compiling as components are added.
     */
    public static final class Builder {
        private String dataSourceName;
        private String table;
        private boolean createTable;
        private String transactionDataSourceName;
        private Duration purgeInterval;
        private boolean notifications;
        private Duration ownerLockTimeout;
        private Duration pollLongestPause;
        private Duration networkTimeout;

        private Builder(JdbcStoreSettings from) {
            this.dataSourceName = from.dataSourceName;
            this.table = from.table;
            this.createTable = from.createTable;
            this.transactionDataSourceName = from.transactionDataSourceName;
            this.purgeInterval = from.purgeInterval;
            this.notifications = from.notifications;
            this.ownerLockTimeout = from.ownerLockTimeout;
            this.pollLongestPause = from.pollLongestPause;
            this.networkTimeout = from.networkTimeout;
        }

        /**
         * @param value see {@link JdbcStoreSettings#dataSourceName()}
         * @return this builder
         */
        public Builder dataSourceName(String value) {
            this.dataSourceName = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#table()}
         * @return this builder
         */
        public Builder table(String value) {
            this.table = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#createTable()}
         * @return this builder
         */
        public Builder createTable(boolean value) {
            this.createTable = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#transactionDataSourceName()}
         * @return this builder
         */
        public Builder transactionDataSourceName(String value) {
            this.transactionDataSourceName = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#purgeInterval()}
         * @return this builder
         */
        public Builder purgeInterval(Duration value) {
            this.purgeInterval = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#notifications()}
         * @return this builder
         */
        public Builder notifications(boolean value) {
            this.notifications = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#ownerLockTimeout()}
         * @return this builder
         */
        public Builder ownerLockTimeout(Duration value) {
            this.ownerLockTimeout = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#pollLongestPause()}
         * @return this builder
         */
        public Builder pollLongestPause(Duration value) {
            this.pollLongestPause = value;
            return this;
        }

        /**
         * @param value see {@link JdbcStoreSettings#networkTimeout()}
         * @return this builder
         */
        public Builder networkTimeout(Duration value) {
            this.networkTimeout = value;
            return this;
        }

        /**
         * @return the settings
         * @throws IllegalArgumentException as the canonical constructor
         */
        public JdbcStoreSettings build() {
            return new JdbcStoreSettings(
                    dataSourceName,
                    table,
                    createTable,
                    transactionDataSourceName,
                    purgeInterval,
                    notifications,
                    ownerLockTimeout,
                    pollLongestPause,
                    networkTimeout);
        }
    }

    /**
     * @return the network bound of the owner's completion and release: {@link #networkTimeout()},
     *     and at least {@link #ownerLockTimeout()} and 1 s more, so that a write waiting its whole
     *     lock bound is ended by the database's lock timeout, not by the socket's; zero when off
     */
    Duration ownerNetworkTimeout() {
        if (networkTimeout.isZero()) {
            return Duration.ZERO;
        }
        Duration lockAndAnswer = ownerLockTimeout.plus(LockWait.BOUND);
        return networkTimeout.compareTo(lockAndAnswer) >= 0 ? networkTimeout : lockAndAnswer;
    }
}
