package io.idemkit.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * The sending side of the wake-ups across store instances on PostgreSQL (C4.3, C12): the
 * completion, the release and the delete each send {@code pg_notify(channel, key)} for the row they
 * changed, in the same statement, so that it costs no round trip and is sent only when the row
 * changed. A notification is delivered when its transaction commits: at once for the store's own
 * statements in auto-commit mode, and at the business transaction's commit for a completion inside
 * it (C13), never for a rollback. The payload is the effective key (64 hex digits, far below
 * NOTIFY's 8000 bytes). The receiving side is {@link PgCompletionListener}.
 */
final class CompletionNotices {

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
     * @param change an {@code UPDATE} or {@code DELETE} of the table, without {@code RETURNING}
     * @return the change in a data-modifying {@code WITH} that notifies once per row it changed and
     *     returns one row per row changed: run it with {@link #changed}
     */
    static String notifying(String channel, String change) {
        return "WITH changed AS ("
                + change
                + " RETURNING idem_key) SELECT pg_notify('"
                + channel
                + "', idem_key) FROM changed";
    }

    /**
     * @param sql the statements
     * @param ps one of {@link RecordStatements#complete}, {@code completeInTransaction}, {@code
     *     release} or {@code delete}
     * @param bounded whether it carries the {@link LockWait} bound
     * @return the rows it changed
     */
    static int changed(RecordStatements sql, PreparedStatement ps, boolean bounded)
            throws SQLException {
        if (!sql.notifies) {
            return bounded ? LockWait.update(sql.dialect, ps) : ps.executeUpdate();
        }
        try (ResultSet rows = bounded ? LockWait.query(sql.dialect, ps) : ps.executeQuery()) {
            int changed = 0;
            while (rows.next()) {
                changed++;
            }
            return changed;
        }
    }
}
