package io.idemkit.store.jdbc;

import java.time.Duration;

/**
 * The SQL of every statement of the JDBC store on one table in one dialect (C12), built once. Each
 * decision on time is taken by the database in the statement that writes ({@code NOW} below is the
 * dialect's {@link JdbcDialect#nowMillis() clock}); the JVM's clock is never read. Completion,
 * release and renew are fenced by key, state {@code CLAIMED} and token in one conditional
 * statement, and wait for a lock the owner's bound ({@link JdbcStoreSettings#ownerLockTimeout()});
 * the completion is written so that it could later run on another connection (one enlisted in the
 * application's transaction, C13) unchanged. No statement that changes a row notifies: the
 * notification is a statement of its own ({@link #notice}), sent after the change committed.
 */
final class RecordStatements {

    private static final String LIVE = "CASE WHEN lease_until > %s THEN 1 ELSE 0 END AS live";

    /** Selects {@link RecordRows#COLUMNS} and {@code live} of a key: 1 parameter, the key. */
    final String selectRow;

    /** Selects {@link RecordRows#COLUMNS} of a key and token: key, token. */
    final String selectClaim;

    /**
     * H2 only: inserts a new claim, failing on a duplicate key: key, fingerprint, version, token,
     * lease millis. Returns {@code claimed_at, lease_until} ({@code FINAL TABLE}).
     */
    final String insertClaim;

    /**
     * PostgreSQL and MariaDB: the whole first step of a claim in one statement, which never raises
     * a duplicate-key error. Parameters: key, fingerprint, version, token, lease millis, and on
     * PostgreSQL the key again. Returns {@code live} and the columns of the row: the new claim when
     * it was inserted (its token is the caller's), else the row that is there. On PostgreSQL,
     * {@code WITH … INSERT … ON CONFLICT DO NOTHING RETURNING}, then a {@code SELECT} of the row,
     * which returns nothing when a racer committed the row after the statement's snapshot. On
     * MariaDB, {@code INSERT … ON DUPLICATE KEY UPDATE idem_key = idem_key RETURNING}: the update
     * changes nothing, and returns the row that is there, read under its row lock.
     */
    final String insertOrSelectClaim;

    /**
     * Overwrites a row with a new claim, pinned on the state and token read: fingerprint, version,
     * token, lease millis, key, state as read, token as read. Used for an unreadable row.
     */
    final String overwritePinned;

    /** As {@link #overwritePinned}, and only if the row is not live by the database's clock. */
    final String overwritePinnedIfLapsed;

    /**
     * Completes a claim: lease (retention) millis, status, headers, body, key, token. Fenced by
     * key, state and token; waits for a lock the owner's bound.
     */
    final String complete;

    /**
     * {@link #complete} as it runs on a connection enlisted in the business transaction (C13):
     * without the store's {@link LockWait bound}, which would otherwise stay on that transaction,
     * and without a notification, which would stay on it too (PostgreSQL refuses to {@code PREPARE
     * TRANSACTION} one that notified, so a two-phase commit would fail every time).
     */
    final String completeInTransaction;

    /** Moves a claim's lease: lease millis, key, token. Waits for a lock the owner's bound. */
    final String renew;

    /** Deletes a claim: key, token. Waits for a lock the owner's bound. */
    final String release;

    /**
     * On PostgreSQL with notifications on, {@code pg_notify} of the table's channel with the key,
     * its only parameter, waiting for the notification queue's lock {@link CompletionNotices#BOUND}
     * at most; {@code null} otherwise. Sent after a change of the key committed ({@link
     * CompletionNotices#send}).
     */
    final String notice;

    /** Deletes a row whatever its state: key. */
    final String delete;

    /**
     * Deletes one batch of rows that are not live, at most the parameter's count: run again until a
     * batch comes back short ({@link JdbcIdempotencyStore#purgeExpired()}). A claim whose lease
     * lapsed is kept {@link #CLAIM_GRACE} more: its owner may still run, and its completion, fenced
     * by its token, still stores the result as long as no duplicate took the claim over.
     */
    final String purge;

    /** How long the purge keeps a claim past its lease: {@value #CLAIM_GRACE_MILLIS} ms. */
    static final long CLAIM_GRACE_MILLIS = 60 * 60 * 1000L;

    /** The database's time in epoch milliseconds. */
    final String now;

    /** Adds one to a live count: retention millis, key. */
    final String countUp;

    /** Reads a count: key. */
    final String selectCount;

    /** Starts over a count that is not live or unreadable: retention millis, key. */
    final String countRestart;

    /** Inserts a count of 1, failing on a duplicate key except on PostgreSQL: key, millis. */
    final String countInsert;

    /** Selects every column and no row: the schema check. */
    final String probe;

    /**
     * The dialect. Every statement above that writes waits for a lock {@link LockWait#BOUND} at
     * most, the owner's completion, release and renewal their own bound, and {@link
     * #completeInTransaction} the application's; each but the last runs on MariaDB at {@code READ
     * COMMITTED} ({@link ReadCommitted}): run it with {@link LockWait#query} or {@link
     * LockWait#update}.
     */
    final JdbcDialect dialect;

    /** On MariaDB, the name of its isolation variable ({@link ReadCommitted#variable}). */
    private final String isolationVariable;

    /**
     * Whether a change of a key that ends its waits (a completion, a release, a delete) is followed
     * by the {@link #notice} of it ({@link CompletionNotices}).
     */
    final boolean notifies;

    /**
     * The statements on a MariaDB of 11.1 or newer, PostgreSQL or H2, that notify no one.
     *
     * @param dialect the database
     * @param table the table of records
     */
    RecordStatements(JdbcDialect dialect, String table) {
        this(dialect, table, ReadCommitted.VARIABLE, null);
    }

    /**
     * @param dialect the database
     * @param table the table of records
     * @param isolationVariable on MariaDB, the name of its isolation variable ({@link
     *     ReadCommitted#variable}); ignored elsewhere
     * @param channel the channel the completion, release and delete notify on PostgreSQL ({@link
     *     CompletionNotices#channel}), or {@code null} for none; ignored on other dialects
     */
    RecordStatements(JdbcDialect dialect, String table, String isolationVariable, String channel) {
        this(
                dialect,
                table,
                isolationVariable,
                channel,
                JdbcStoreSettings.defaults().ownerLockTimeout());
    }

    /**
     * @param dialect the database
     * @param table the table of records
     * @param isolationVariable on MariaDB, the name of its isolation variable ({@link
     *     ReadCommitted#variable}); ignored elsewhere
     * @param channel the channel the completion, release and delete notify on PostgreSQL ({@link
     *     CompletionNotices#channel}), or {@code null} for none; ignored on other dialects
     * @param ownerBound how long the owner's completion, release and renewal wait for a lock
     */
    RecordStatements(
            JdbcDialect dialect,
            String table,
            String isolationVariable,
            String channel,
            Duration ownerBound) {
        this.dialect = dialect;
        this.isolationVariable = isolationVariable;
        this.notifies = channel != null && dialect == JdbcDialect.POSTGRESQL;
        String now = dialect.nowMillis();
        this.now = "SELECT " + now + " AS now_ms";
        String live = String.format(LIVE, now);
        selectRow =
                "SELECT "
                        + live
                        + ", "
                        + RecordRows.COLUMNS
                        + " FROM "
                        + table
                        + " WHERE idem_key = ?";
        selectClaim =
                "SELECT "
                        + RecordRows.COLUMNS
                        + " FROM "
                        + table
                        + " WHERE idem_key = ? AND claim_token = ?";
        String insert =
                "INSERT INTO "
                        + table
                        + " (idem_key, state, fingerprint, fingerprint_version, claim_token,"
                        + " claimed_at, lease_until)";
        if (dialect == JdbcDialect.POSTGRESQL) {
            insertClaim = null;
            insertOrSelectClaim =
                    bounded(
                            "WITH clock AS (SELECT "
                                    + now
                                    + " AS now_ms), ins AS ("
                                    + insert
                                    + " SELECT ?, 'CLAIMED', ?, ?, ?, now_ms, now_ms + ? FROM clock"
                                    + " ON CONFLICT (idem_key) DO NOTHING"
                                    + " RETURNING "
                                    + RecordRows.COLUMNS
                                    + ")"
                                    + " SELECT 1 AS live, "
                                    + RecordRows.COLUMNS
                                    + " FROM ins UNION ALL SELECT CASE WHEN t.lease_until >"
                                    + " clock.now_ms THEN 1 ELSE 0 END, "
                                    + qualified("t")
                                    + " FROM "
                                    + table
                                    + " t, clock WHERE t.idem_key = ?"
                                    + " AND NOT EXISTS (SELECT 1 FROM ins)");
        } else if (dialect == JdbcDialect.MARIADB) {
            insertClaim = null;
            insertOrSelectClaim =
                    bounded(
                            insert
                                    + " VALUES (?, 'CLAIMED', ?, ?, ?, "
                                    + now
                                    + ", "
                                    + now
                                    + " + ?) ON DUPLICATE KEY UPDATE idem_key = idem_key RETURNING "
                                    + live
                                    + ", "
                                    + RecordRows.COLUMNS);
        } else {
            insertClaim =
                    "SELECT claimed_at, lease_until FROM FINAL TABLE ("
                            + insert
                            + " VALUES (?, 'CLAIMED', ?, ?, ?, "
                            + now
                            + ", "
                            + now
                            + " + ?))";
            insertOrSelectClaim = null;
        }
        String overwrite =
                "UPDATE "
                        + table
                        + " SET state = 'CLAIMED', fingerprint = ?,"
                        + " fingerprint_version = ?, claim_token = ?, claimed_at = "
                        + now
                        + ", lease_until = "
                        + now
                        + " + ?, completed_at = NULL,"
                        + " response_status = NULL, response_headers = NULL,"
                        + " response_body = NULL, attempts = NULL WHERE idem_key = ? AND "
                        + dialect.nullSafeEquals("state")
                        + " AND "
                        + dialect.nullSafeEquals("claim_token");
        overwritePinned = bounded(overwrite);
        overwritePinnedIfLapsed =
                bounded(overwrite + " AND (lease_until IS NULL OR lease_until <= " + now + ")");
        String fenced = " WHERE idem_key = ? AND state = 'CLAIMED' AND claim_token = ?";
        String completion = completion(table, now, fenced);
        completeInTransaction = completion(table, dialect.inTransactionNowMillis(), fenced);
        complete = ownerBounded(completion, ownerBound);
        renew =
                ownerBounded(
                        "UPDATE " + table + " SET lease_until = " + now + " + ?" + fenced,
                        ownerBound);
        release = ownerBounded("DELETE FROM " + table + fenced, ownerBound);
        delete = bounded("DELETE FROM " + table + " WHERE idem_key = ?");
        notice = notifies ? CompletionNotices.notice(channel) : null;
        // Not live, and for a claim lapsed for CLAIM_GRACE: its owner may still complete it. A row
        // without a state (unreadable) has no owner.
        String expired =
                "(lease_until IS NULL OR lease_until <= "
                        + now
                        + " AND (state IS NULL OR state <> 'CLAIMED' OR lease_until <= "
                        + now
                        + " - "
                        + CLAIM_GRACE_MILLIS
                        + "))";
        purge =
                bounded(
                        switch (dialect) {
                            // Locks only the rows it deletes, and skips a row another transaction
                            // holds (a completion inside a business transaction, C13): it is not
                            // expired for long. ARRAY(...) runs the locking subselect once.
                            case POSTGRESQL ->
                                    "DELETE FROM "
                                            + table
                                            + " WHERE idem_key = ANY(ARRAY(SELECT idem_key FROM "
                                            + table
                                            + " WHERE "
                                            + expired
                                            + " LIMIT ? FOR UPDATE SKIP LOCKED)) AND "
                                            + expired;
                            // Walks the lease_until index from its start, so that InnoDB's
                            // next-key locks cover one batch of expired rows, never the live ones
                            // beyond.
                            case MARIADB ->
                                    "DELETE FROM "
                                            + table
                                            + " WHERE "
                                            + expired
                                            + " ORDER BY lease_until LIMIT ?";
                            case H2 ->
                                    "DELETE FROM "
                                            + table
                                            + " WHERE "
                                            + expired
                                            + " FETCH FIRST ? ROWS ONLY";
                        });
        String liveCount = "state = 'ATTEMPTS' AND attempts IS NOT NULL AND lease_until > " + now;
        countUp =
                bounded(
                        "UPDATE "
                                + table
                                + " SET attempts = attempts + 1, lease_until = "
                                + now
                                + " + ? WHERE idem_key = ? AND "
                                + liveCount);
        selectCount = "SELECT attempts FROM " + table + " WHERE idem_key = ?";
        countRestart =
                bounded(
                        "UPDATE "
                                + table
                                + " SET state = 'ATTEMPTS', attempts = 1, lease_until = "
                                + now
                                + " + ?, fingerprint = NULL, fingerprint_version = NULL,"
                                + " claim_token = NULL, claimed_at = NULL, completed_at = NULL,"
                                + " response_status = NULL, response_headers = NULL,"
                                + " response_body = NULL WHERE idem_key = ? AND NOT COALESCE("
                                + liveCount
                                + ", FALSE)");
        String insertCount =
                "INSERT INTO "
                        + table
                        + " (idem_key, state, attempts, lease_until) VALUES"
                        + " (?, 'ATTEMPTS', 1, "
                        + now
                        + " + ?)";
        countInsert =
                bounded(
                        dialect == JdbcDialect.POSTGRESQL
                                ? insertCount + " ON CONFLICT (idem_key) DO NOTHING"
                                : insertCount);
        probe = "SELECT " + RecordRows.COLUMNS + " FROM " + table + " WHERE 1 = 0";
    }

    private static String completion(String table, String now, String fenced) {
        return "UPDATE "
                + table
                + " SET state = 'COMPLETED', completed_at = "
                + now
                + ", lease_until = "
                + now
                + " + ?, response_status = ?,"
                + " response_headers = ?, response_body = ?"
                + fenced;
    }

    private String bounded(String sql) {
        return LockWait.bounded(dialect, isolationVariable, sql);
    }

    private String ownerBounded(String sql, Duration bound) {
        return LockWait.bounded(dialect, isolationVariable, sql, bound);
    }

    private static String qualified(String alias) {
        return alias + "." + RecordRows.COLUMNS.replace(", ", ", " + alias + ".");
    }
}
