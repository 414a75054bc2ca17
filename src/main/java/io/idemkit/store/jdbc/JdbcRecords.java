package io.idemkit.store.jdbc;

import io.idemkit.spi.ClaimToken;
import io.idemkit.store.CompletionPoll;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The JDBC store's way to its rows: the data source, what the store learns of its database when it
 * starts (the dialect, the statements, the claim steps, the packet limit, the completion listener),
 * and the statements every operation shares, each on a connection of its own in auto-commit mode
 * ({@link JdbcIdempotencyStore} says why). {@link JdbcIdempotencyStore} keeps the contract: the
 * argument checks, the completion signals and what each operation promises. Thread-safe.
 */
final class JdbcRecords {

    /** The store once it knows its database: the dialect, the statements, the claim. */
    record Started(
            JdbcDialect dialect,
            RecordStatements sql,
            ClaimSteps claims,
            long packetLimit,
            CompletionListener listener) {}

    /** One piece of work on a connection. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection connection, Started store) throws SQLException;
    }

    private final DataSource dataSource;
    private final JdbcStoreSettings settings;
    private final Duration listenerIdle;
    private final CompletionPoll completions;
    private final NetworkBound network = new NetworkBound();
    private volatile Started started;

    JdbcRecords(
            DataSource dataSource,
            JdbcStoreSettings settings,
            Duration listenerIdle,
            CompletionPoll completions) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.settings = settings;
        this.listenerIdle = Objects.requireNonNull(listenerIdle, "listenerIdle");
        this.completions = completions;
    }

    /**
     * @return the state once started, or {@code null}
     */
    Started started() {
        return started;
    }

    /**
     * @return the store's state, once it knows its database: connects and checks the table on first
     *     use
     * @throws io.idemkit.IdempotencyStorageException as {@link JdbcIdempotencyStore#start()}
     */
    Started ready() {
        Started s = started;
        if (s != null) {
            return s;
        }
        synchronized (this) {
            if (started == null) {
                try (Connection c = AutoCommit.on(dataSource.getConnection());
                        NetworkBound.Held held = network.on(c, settings.networkTimeout())) {
                    JdbcDialect dialect = TableSchema.dialect(c);
                    boolean notifying =
                            settings.notifications() && dialect == JdbcDialect.POSTGRESQL;
                    String channel = notifying ? CompletionNotices.channel(settings.table()) : null;
                    RecordStatements sql =
                            new RecordStatements(
                                    dialect,
                                    settings.table(),
                                    dialect == JdbcDialect.MARIADB
                                            ? MariaDbServer.check(c)
                                            : ReadCommitted.VARIABLE,
                                    channel,
                                    settings.ownerLockTimeout());
                    TableSchema.check(c, dialect, settings, sql);
                    long packetLimit = ResultWrite.packetLimit(c, dialect);
                    // PgCompletionListener, which reaches the PostgreSQL driver (by reflection),
                    // is loaded only here, on PostgreSQL; it finds that reach on c, at start.
                    started =
                            new Started(
                                    dialect,
                                    sql,
                                    new ClaimSteps(dialect, sql),
                                    packetLimit,
                                    notifying
                                            ? PgCompletionListener.on(
                                                    dataSource,
                                                    network,
                                                    channel,
                                                    completions,
                                                    listenerIdle,
                                                    c)
                                            : CompletionListener.POLLING);
                } catch (SQLException e) {
                    throw SqlFailures.failure("start", null, e);
                }
            }
            return started;
        }
    }

    /**
     * Runs {@code work} on a connection of its own, in auto-commit mode, given back at once, its
     * reads bounded by {@link JdbcStoreSettings#networkTimeout()}.
     *
     * @throws io.idemkit.IdempotencyStorageException when it fails, for {@code operation} on {@code
     *     key}
     */
    <T> T call(String operation, String key, SqlWork<T> work) {
        return call(operation, key, settings.networkTimeout(), work);
    }

    /**
     * {@link #call} for the owner's own writes of its claim, whose lock waits are longer: reads
     * bounded by {@link JdbcStoreSettings#ownerNetworkTimeout()}.
     */
    <T> T ownerCall(String operation, String key, SqlWork<T> work) {
        return call(operation, key, settings.ownerNetworkTimeout(), work);
    }

    /**
     * {@link #call} with reads bounded by {@code bound} ({@link NetworkBound}; zero for the
     * driver's own).
     */
    <T> T call(String operation, String key, Duration bound, SqlWork<T> work) {
        Started s = ready();
        try (Connection c = AutoCommit.on(dataSource.getConnection());
                NetworkBound.Held held = network.on(c, bound)) {
            return work.run(c, s);
        } catch (SQLException e) {
            throw SqlFailures.failure(operation, key, e);
        }
    }

    /**
     * One fenced {@code UPDATE} or {@code DELETE} of a claim: {@code statement}'s parameters are
     * {@code millis} (when not {@code null}), the key and the token. When {@code notifying} and it
     * changed the row, the notification of the key follows once it committed ({@link
     * CompletionNotices#send}), on the same connection.
     *
     * @return whether it changed the row
     */
    boolean update(
            String operation,
            String key,
            Function<RecordStatements, String> statement,
            boolean notifying,
            ClaimToken token,
            Long millis) {
        return ownerCall(
                operation,
                key,
                (c, s) -> {
                    try (PreparedStatement ps = c.prepareStatement(statement.apply(s.sql()))) {
                        int i = 1;
                        if (millis != null) {
                            ps.setLong(i++, millis);
                        }
                        ps.setString(i++, key);
                        ps.setString(i, token.value());
                        boolean changed = LockWait.update(s.dialect(), ps) == 1;
                        return notifying
                                ? CompletionNotices.sentIf(changed, c, s.sql(), key)
                                : changed;
                    }
                });
    }

    /**
     * Sends the notification of {@code key} on a connection of its own ({@link
     * CompletionNotices#send}), if the store notifies; best effort: never throws, and does nothing
     * before the store started or while the database cannot be reached (the waiters then poll).
     */
    void notice(String key) {
        Started s = started;
        if (s == null || !s.sql().notifies) {
            return;
        }
        try (Connection c = AutoCommit.on(dataSource.getConnection());
                NetworkBound.Held held = network.on(c, settings.networkTimeout())) {
            CompletionNotices.send(c, s.sql(), key);
        } catch (SQLException | RuntimeException e) {
            // No connection now: the other instances' waiters poll.
        }
    }

    /**
     * @return the key's row, as the database has it now
     */
    Optional<RecordRows.Row> readRow(String operation, String key) {
        return call(
                operation,
                key,
                (c, s) -> {
                    try (PreparedStatement ps = c.prepareStatement(s.sql().selectRow)) {
                        ps.setString(1, key);
                        try (ResultSet rows = ps.executeQuery()) {
                            return rows.next()
                                    ? Optional.of(RecordRows.row(rows))
                                    : Optional.empty();
                        }
                    }
                });
    }

    /**
     * @return the database's clock, epoch milliseconds
     */
    static long databaseMillis(Connection c, Started s) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(s.sql().now);
                ResultSet rows = ps.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
