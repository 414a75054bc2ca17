package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreArguments;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The idempotency store on an application's own relational database (contract C12): one row per
 * effective key in one table ({@link RecordRows} lists its columns; the DDL of each dialect is a
 * resource beside this class), on PostgreSQL, MariaDB or H2 ({@link JdbcDialect}). Any other
 * database is refused when the store starts.
 *
 * <h2>Transactions</h2>
 *
 * Every statement runs on a connection the store takes from its {@link DataSource} and gives back
 * at once, in auto-commit mode: each claim, completion, release and renew commits on its own, and a
 * duplicate key can never abort or poison a transaction the application shares. The data source
 * must therefore <b>not be enlisted in JTA transactions</b>: in a server, give the store a data
 * source declared non-transactional (Liberty {@code transactional="false"}, WildFly {@code
 * jta="false"}, Payara a non-transactional resource). An enlisted connection inside a transaction
 * refuses auto-commit, and every operation then fails with a message that says so.
 *
 * <p>No statement of a duplicate waits for a lock longer than {@link LockWait#BOUND}; a claim that
 * meets its record held longer (a completion inside a business transaction, C13) answers from the
 * row as committed, and contention is {@link IdempotencyStorageException.Kind#CONTENDED}, never an
 * outage ({@link SqlFailures}). The owner's completion, release and renewal wait longer ({@link
 * JdbcStoreSettings#ownerLockTimeout()}), so that a lock on the table (a migration) does not drop a
 * result. On MariaDB those statements run at {@code READ COMMITTED}, set for each statement, so
 * that a range scan (the purge's) takes no gap locks that would hold up new claims ({@link
 * ReadCommitted}).
 *
 * <h2>Time, round trips, wake-ups</h2>
 *
 * Every lease and expiry decision, and every time written, is the database's own clock read in the
 * statement that decides ({@link JdbcDialect#nowMillis()}), as epoch milliseconds; the JVM's clock
 * is never read. A fresh claim is one statement and its completion one more (on PostgreSQL with
 * notifications, one more again: the notification, in a transaction of its own); a replay is one
 * ({@link ClaimSteps}). A duplicate that waits ({@link #awaitCompletion}) polls its record; a
 * change through this instance ends its pause at once, and on PostgreSQL a change through any
 * instance does too ({@link CompletionNotices}, {@link PgCompletionListener}). docs/jdbc-store.md
 * has the details.
 *
 * <p>Instances are thread-safe; one serves a whole application. Constructing one does not connect.
 */
public final class JdbcIdempotencyStore implements IdempotencyStore {

    private static final String NAME = "jdbc";

    /** The most rows one statement of {@link #purgeExpired()} deletes. */
    static final int PURGE_BATCH = 1000;

    private final DataSource transactional;
    private final JdbcStoreSettings settings;
    private final CompletionPoll completions;
    private final JdbcRecords records;

    /**
     * A store on {@code dataSource}, which the store never closes.
     *
     * @param dataSource a data source that is not enlisted in JTA transactions
     * @param settings the table, and whether to create it
     */
    public JdbcIdempotencyStore(DataSource dataSource, JdbcStoreSettings settings) {
        this(dataSource, null, settings);
    }

    /**
     * A store that can also complete records inside the business transaction (C13).
     *
     * @param dataSource a data source that is not enlisted in JTA transactions, for the claims
     * @param transactional the application's JTA data source on the same database, or {@code null}
     * @param settings the table, and whether to create it
     */
    public JdbcIdempotencyStore(
            DataSource dataSource, DataSource transactional, JdbcStoreSettings settings) {
        this(
                dataSource,
                transactional,
                settings,
                CompletionListener.IDLE_PERIOD,
                CompletionPoll.upTo(
                        Objects.requireNonNull(settings, "settings").pollLongestPause()));
    }

    /**
     * As {@link #JdbcIdempotencyStore(DataSource, DataSource, JdbcStoreSettings)}, with the
     * PostgreSQL listener's idle period and the poll of {@link #awaitCompletion}; {@link
     * CompletionListener#IDLE_PERIOD} and the default {@link CompletionPoll} but in tests, which
     * cannot wait a minute for the one, and must tell a notification from a poll by the other.
     *
     * @param listenerIdle how long no duplicate must have waited before the listening connection is
     *     given back
     * @param completions the waits of this instance, used by no other store
     */
    JdbcIdempotencyStore(
            DataSource dataSource,
            DataSource transactional,
            JdbcStoreSettings settings,
            Duration listenerIdle,
            CompletionPoll completions) {
        this.transactional = transactional;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.completions = Objects.requireNonNull(completions, "completions");
        this.records = new JdbcRecords(dataSource, settings, listenerIdle, completions);
    }

    /**
     * Connects, refuses a database that is not supported, and checks the table (creating it if
     * {@link JdbcStoreSettings#createTable()} and it is missing). The first operation does this on
     * its own; a deployment calls it to fail early. Idempotent once it succeeded.
     *
     * @throws IdempotencyStorageException if the database cannot be reached or is not supported, or
     *     the table is missing or lacks a column (the message carries the DDL to run)
     */
    public void start() {
        records.ready();
    }

    /**
     * @return the dialect's product name once started ({@code PostgreSQL}, {@code MariaDB}, {@code
     *     H2}), for diagnostics
     */
    public String databaseProduct() {
        return records.ready().dialect().productName();
    }

    /**
     * @return the largest body (with no headers) a completion is sure to store once started: {@link
     *     Long#MAX_VALUE} but on MariaDB, where it is half of {@code max_allowed_packet} less some
     *     room; a larger result is refused, before it is sent ({@link ResultWrite})
     */
    public long largestStorableBody() {
        return ResultWrite.largestBody(records.ready().packetLimit());
    }

    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.checkClaim(key, fingerprint, fingerprintVersion, leaseTtl);
        try {
            return records.call(
                    "claim",
                    key,
                    (c, s) ->
                            s.claims()
                                    .claim(
                                            c,
                                            key,
                                            fingerprint,
                                            fingerprintVersion,
                                            millis(leaseTtl)));
        } catch (IdempotencyStorageException e) {
            if (e.kind() != IdempotencyStorageException.Kind.CONTENDED
                    || !(e.getCause() instanceof SQLException contention)) {
                throw e;
            }
            return records.call("claim", key, (c, s) -> s.claims().asCommitted(c, key, contention));
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@code UPDATE … WHERE idem_key = ? AND state = 'CLAIMED' AND claim_token = ?}; on
     * PostgreSQL, once it committed, a {@code pg_notify} of its own tells the other instances
     * ({@link CompletionNotices}).
     */
    @Override
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.checkComplete(key, token, result, completedTtl);
        boolean stored =
                records.ownerCall(
                        "complete",
                        key,
                        (c, s) ->
                                CompletionNotices.sentIf(
                                        ResultWrite.completeOn(
                                                c,
                                                s.sql(),
                                                s.packetLimit(),
                                                key,
                                                token,
                                                result,
                                                completedTtl),
                                        c,
                                        s.sql(),
                                        key));
        return completions.signalIf(stored, key);
    }

    /**
     * {@inheritDoc} The completion's one statement on a connection of the JTA data source, which
     * the caller's transaction enlists; never committed here, and notifying no one, so that the
     * transaction can be prepared for a two-phase commit. Waiters are woken once it committed
     * ({@link #completionCommitted}), or find it at their next poll. A connection in no
     * transaction, or at an isolation level at which the lease heartbeat would fail the completion,
     * is refused ({@code REFUSED}) before anything is written ({@link BusinessTransaction}).
     */
    @Override
    public boolean completeInTransaction(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.checkComplete(key, token, result, completedTtl);
        if (transactional == null) {
            throw new UnsupportedOperationException(
                    "The JDBC store completes records inside a transaction only on the data source"
                            + " idemkit.jdbc.transaction-datasource names; none is set.");
        }
        JdbcRecords.Started s = records.ready();
        try (Connection c = transactional.getConnection()) {
            BusinessTransaction.requireUsable(c, s.sql().dialect);
            return ResultWrite.completeInTransactionOn(
                    c, s.sql(), s.packetLimit(), key, token, result, completedTtl);
        } catch (SQLException e) {
            throw SqlFailures.failure("complete", key, e);
        }
    }

    /**
     * {@inheritDoc} Wakes this instance's waiters on {@code key} and, on PostgreSQL with
     * notifications on, the other instances' with a {@code pg_notify} of its own on a connection of
     * the store's own data source, waiting for the notification queue's lock {@link
     * CompletionNotices#BOUND} at most. Never throws: a waiter it fails to wake finds the record at
     * its next poll.
     */
    @Override
    public void completionCommitted(String key) {
        records.notice(key);
        completions.signal(key);
    }

    /**
     * {@inheritDoc} One {@code DELETE} fenced by key, state and token; on PostgreSQL, once it
     * committed, a {@code pg_notify} of its own tells the other instances.
     */
    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.checkRelease(key, token);
        boolean released = records.update("release", key, s -> s.release, true, token, null);
        return completions.signalIf(released, key);
    }

    /**
     * {@inheritDoc} One {@code UPDATE} fenced by key, state and token, with a query timeout of the
     * heartbeat's deadline for a renewal of this lease, in whole seconds rounded up ({@link
     * LockWait#renewalTimeoutSeconds}): the heartbeat tells the operation when that deadline passes
     * (C4.7), and the timeout then frees the thread the renewal holds, where the driver can cancel
     * the statement (a lock wait, a slow database; not a half-open socket, which only the driver's
     * socket timeout ends).
     */
    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.checkRenew(key, token, leaseTtl);
        int timeoutSeconds = LockWait.renewalTimeoutSeconds(leaseTtl);
        return records.call(
                "renew",
                key,
                renewalNetworkTimeout(timeoutSeconds),
                (c, s) -> {
                    try (PreparedStatement ps = c.prepareStatement(s.sql().renew)) {
                        ps.setQueryTimeout(timeoutSeconds);
                        ps.setLong(1, millis(leaseTtl));
                        ps.setString(2, key);
                        ps.setString(3, token.value());
                        return LockWait.update(s.dialect(), ps) == 1;
                    }
                });
    }

    /**
     * A renewal's network bound: its query timeout and 1 s more, so that the database cancels a
     * slow renewal first and the socket's bound ends only one whose database stopped answering, and
     * no longer than the owner's other writes wait; zero when {@code idemkit.jdbc.network-timeout}
     * is.
     */
    private Duration renewalNetworkTimeout(int timeoutSeconds) {
        Duration owner = settings.ownerNetworkTimeout();
        Duration deadline = Duration.ofSeconds(timeoutSeconds).plus(LockWait.BOUND);
        return owner.isZero() || owner.compareTo(deadline) <= 0 ? owner : deadline;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Polls with one {@code SELECT} whose liveness the database decides, first after 10 ms,
     * doubling up to {@link JdbcStoreSettings#pollLongestPause()} (500 ms by default), never past
     * the deadline; a completion, release or delete through this instance ends the current pause at
     * once ({@link CompletionPoll}), and on PostgreSQL one through any instance on the database
     * too, once this instance listens ({@link PgCompletionListener}).
     */
    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        StoreArguments.checkAwaitCompletion(key, timeout);
        CompletionListener listener = listener();
        listener.waiterArrives();
        try {
            return completions.await(
                    key,
                    timeout,
                    first -> {
                        if (Thread.interrupted()) {
                            throw new InterruptedException(
                                    "interrupted while waiting for completion");
                        }
                        return records.readRow("awaitCompletion", key)
                                .filter(RecordRows.Row::live)
                                .flatMap(RecordRows.Row::record);
                    });
        } finally {
            listener.waiterLeaves();
        }
    }

    /** The listener once started; polling while the database cannot be reached. */
    private CompletionListener listener() {
        try {
            return records.ready().listener();
        } catch (IdempotencyStorageException e) {
            return CompletionListener.POLLING; // the wait's first read reports the failure
        }
    }

    /** {@inheritDoc} One {@code SELECT}; whether a result expired is decided by the database. */
    @Override
    public Optional<IdempotencyRecord> find(String key) {
        StoreArguments.requireKey(key);
        return records.readRow("find", key)
                .filter(row -> row.live() || RecordRows.CLAIMED.equals(row.state()))
                .flatMap(RecordRows.Row::record);
    }

    /**
     * {@inheritDoc} One {@code DELETE} by key; on PostgreSQL, once it committed, a {@code
     * pg_notify} of its own tells the other instances.
     */
    @Override
    public boolean delete(String key) {
        StoreArguments.requireKey(key);
        boolean deleted =
                records.call(
                        "delete",
                        key,
                        (c, s) -> {
                            try (PreparedStatement ps = c.prepareStatement(s.sql().delete)) {
                                ps.setString(1, key);
                                return CompletionNotices.sentIf(
                                        LockWait.update(s.dialect(), ps) == 1, c, s.sql(), key);
                            }
                        });
        return completions.signalIf(deleted, key);
    }

    /**
     * Deletes every row whose {@code lease_until} has passed by the database's clock: completed
     * records past their retention, expired attempt counts, and claims whose lease ran out {@link
     * RecordStatements#CLAIM_GRACE_MILLIS an hour} ago or more (until then, their owner may still
     * run and complete them). There is no TTL index in a relational database: schedule this ({@code
     * idemkit.jdbc.purge-interval} and {@link PurgeSchedule}, the admin API's purge, or a timer of
     * the application) as often as the table's growth asks. Never deletes a live record. Safe to
     * run at any time, from any number of instances. The index on {@code lease_until} keeps it
     * cheap. In batches of at most {@value #PURGE_BATCH} rows ({@link PurgeBatches}).
     */
    @Override
    public long purgeExpired() {
        return records.call(
                "purgeExpired", null, (c, s) -> PurgeBatches.run(c, s.sql(), PURGE_BATCH));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A row of its own, state {@code ATTEMPTS}, in the records' table ({@link AttemptRows}).
     */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.checkCountAttempt(attemptsKey, retention);
        return records.call(
                "countAttempt",
                attemptsKey,
                (c, s) ->
                        AttemptRows.count(c, s.dialect(), s.sql(), attemptsKey, millis(retention)));
    }

    /** {@inheritDoc} One {@code SELECT} of the database's clock. */
    @Override
    public Instant now() {
        return records.call(
                "now", null, (c, s) -> Instant.ofEpochMilli(JdbcRecords.databaseMillis(c, s)));
    }

    /**
     * Up when the database answers one query of its clock; reports the database's product name as
     * {@code database}, and as {@code notifications} how waiters hear of completions made through
     * other instances: {@code polling} (MariaDB, H2, or notifications off), {@code listening},
     * {@code idle (listens while a duplicate waits)}, or {@code polling (listener down)} while the
     * listening connection is being restored; never down because of it.
     */
    @Override
    public StoreHealth health() {
        return records.call(
                "health",
                null,
                (c, s) -> {
                    JdbcRecords.databaseMillis(c, s);
                    return StoreHealth.up(
                            Map.of(
                                    "database",
                                    s.dialect().productName(),
                                    "notifications",
                                    s.listener().status()));
                });
    }

    /**
     * @return {@code jdbc}
     */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * Stops listening for completions and gives the listening connection back, then wakes every
     * waiter. The data source is the application's and is left open.
     */
    @Override
    public void close() {
        JdbcRecords.Started s = records.started();
        if (s != null) {
            s.listener().close();
        }
        completions.signalAll();
    }

    @Override
    public String toString() {
        return "JdbcIdempotencyStore[" + settings + "]";
    }

    private static long millis(Duration ttl) {
        return ttl.toMillis();
    }
}
