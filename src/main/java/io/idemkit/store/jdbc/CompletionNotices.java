package io.idemkit.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The sending side of the wake-ups across store instances on PostgreSQL (C4.3, C12): once a
 * completion, a release or a delete of a key has committed, {@code pg_notify(channel, key)} in a
 * statement and a transaction of its own, on the store's own connection in auto-commit mode: the
 * store's own changes send it right after their statement, on the same connection; a completion
 * inside the business transaction (C13) when the engine says that transaction committed ({@link
 * JdbcIdempotencyStore#completionCommitted}), never for a rollback. The payload is the effective
 * key (64 hex digits, far below NOTIFY's 8000 bytes). The receiving side is {@link
 * PgCompletionListener}.
 *
 * <p>Never in the change's own transaction, for two reasons. PostgreSQL refuses to {@code PREPARE
 * TRANSACTION} a transaction that notified, so a completion inside a business transaction with a
 * second XA resource would fail at every two-phase commit. And a transaction that notified takes a
 * lock of the whole database at its commit, held until the commit is flushed, so that notifying
 * commits queue behind one another: under load that queue, under the store's lock bound, would fail
 * a completion (55P03) and drop its result. Sent after the commit, a notification can only fail
 * itself: it waits for that lock {@link #BOUND} at most, and a notification that fails or is never
 * sent costs the waiters of other instances one poll, which finds the change (C4.3: polling is the
 * floor). It costs the change one more round trip.
 */
final class CompletionNotices {

    /**
     * How long a notification waits for the notification queue's lock: {@value #BOUND_MILLIS} ms,
     * under the waiters' longest poll pause (500 ms), past which a notification would wake them no
     * sooner than their poll.
     */
    static final long BOUND_MILLIS = 200;

    static final Duration BOUND = Duration.ofMillis(BOUND_MILLIS);

    private static final System.Logger LOG = System.getLogger(CompletionNotices.class.getName());

    private CompletionNotices() {}

    /**
     * @param table the store's table, optionally schema-qualified
     * @return the channel of that table: {@code idemkit_} and the CRC-32 of its lower-cased name in
     *     8 hex digits, a plain identifier that {@code LISTEN} takes unquoted
     */
    static String channel(String table) {
        CRC32 crc = new CRC32();
        crc.update(table.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
        return String.format(Locale.ROOT, "idemkit_%08x", crc.getValue());
    }

    /**
     * @param channel a {@link #channel}
     * @return the notification of a key on it, bounded: one parameter, the key
     */
    static String notice(String channel) {
        return LockWait.bounded(
                JdbcDialect.POSTGRESQL,
                ReadCommitted.VARIABLE,
                "SELECT pg_notify('" + channel + "', ?)",
                BOUND);
    }

    /**
     * @param changed whether a change of {@code key} just committed on {@code c}
     * @return {@code changed}, once the notification of it was {@link #send sent} if it is true
     */
    static boolean sentIf(boolean changed, Connection c, RecordStatements sql, String key) {
        if (changed) {
            send(c, sql, key);
        }
        return changed;
    }

    /**
     * Notifies the other instances that {@code key} changed, if {@code sql} notifies; best effort:
     * a failure is logged at DEBUG, never thrown. Run on a connection in auto-commit mode, after
     * the change committed.
     *
     * @param c a connection of the store's own data source, in auto-commit mode
     * @param sql the statements
     * @param key the effective key
     */
    static void send(Connection c, RecordStatements sql, String key) {
        if (!sql.notifies) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(sql.notice)) {
            ps.setString(1, key);
            try (ResultSet ignored = LockWait.query(sql.dialect, ps)) {
                // pg_notify returns void: one row, nothing to read.
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    () ->
                            "idemkit's JDBC store sent no notification for key "
                                    + key
                                    + " (the waiters of other instances find it at their next"
                                    + " poll): "
                                    + e);
        }
    }
}
