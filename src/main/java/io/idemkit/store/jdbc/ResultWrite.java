package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The completion's one statement (C12), and what one statement can carry to the database.
 *
 * <p>MariaDB takes no statement over the server's {@code max_allowed_packet}, and its driver sends
 * a prepared statement's binary parameter escaped inside the statement's text, so that each byte of
 * a result may become two: a result that does not fit reaches the server as an oversized packet,
 * the server closes the connection, and the driver reports a socket error that reads like an
 * outage. Whether it fits depends on the bytes, not only their number. The store therefore refuses,
 * before sending it, any result whose worst case does not fit ({@code 2 × (body + headers) + }
 * {@value #STATEMENT_ROOM} bytes over {@code max_allowed_packet}), as {@link
 * IdempotencyStorageException.Kind#REFUSED REFUSED} with a message that names the setting: the rule
 * is the same for every response of a size, whatever its content. PostgreSQL and H2 take up to 1
 * GiB in a column, far above the largest {@code idemkit.max-body-bytes}.
 */
final class ResultWrite {

    /** Room kept in a packet for the statement around the result: its text, key and token. */
    static final int STATEMENT_ROOM = 64 * 1024;

    private ResultWrite() {}

    /**
     * @param c a connection
     * @param dialect its dialect
     * @return the largest packet the database takes, or {@link Long#MAX_VALUE} when no packet limit
     *     comes near a result's size
     * @throws SQLException if the database cannot say
     */
    static long packetLimit(Connection c, JdbcDialect dialect) throws SQLException {
        if (dialect != JdbcDialect.MARIADB) {
            return Long.MAX_VALUE;
        }
        try (Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT @@max_allowed_packet")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * @param packetLimit {@link #packetLimit}
     * @return the largest body, without headers, that a completion is sure to carry
     */
    static long largestBody(long packetLimit) {
        return packetLimit == Long.MAX_VALUE
                ? Long.MAX_VALUE
                : Math.max(0, (packetLimit - STATEMENT_ROOM) / 2);
    }

    /**
     * The completion, one statement fenced by key, state and token, on the store's own connection
     * in auto-commit mode, waiting for a lock the owner's bound at most ({@link
     * JdbcStoreSettings#ownerLockTimeout()}). It reads no clock of the JVM and raises no
     * duplicate-key error, and notifies no one: the caller sends the notification once it committed
     * ({@link CompletionNotices}).
     *
     * @return whether the claim was still held with {@code token} and is now completed
     * @throws IdempotencyStorageException {@code REFUSED}, with nothing sent, if the result may not
     *     fit in one packet
     */
    static boolean completeOn(
            Connection c,
            RecordStatements sql,
            long packetLimit,
            String key,
            ClaimToken token,
            StoredResult result,
            Duration completedTtl)
            throws SQLException {
        return write(c, sql, true, packetLimit, key, token, result, completedTtl);
    }

    /**
     * The same completion on a connection enlisted in the application's transaction (C13), so that
     * the record commits or rolls back with the business writes; its lock wait is the
     * application's. It notifies no one: the transaction could not be prepared for a two-phase
     * commit ({@link CompletionNotices}). {@link BusinessTransaction} has checked that {@code c} is
     * in a transaction.
     *
     * @return whether the claim was still held with {@code token} and is now completed
     * @throws IdempotencyStorageException {@code REFUSED}, with nothing sent, if the result may not
     *     fit in one packet
     */
    static boolean completeInTransactionOn(
            Connection c,
            RecordStatements sql,
            long packetLimit,
            String key,
            ClaimToken token,
            StoredResult result,
            Duration completedTtl)
            throws SQLException {
        return write(c, sql, false, packetLimit, key, token, result, completedTtl);
    }

    private static boolean write(
            Connection c,
            RecordStatements sql,
            boolean ownConnection,
            long packetLimit,
            String key,
            ClaimToken token,
            StoredResult result,
            Duration completedTtl)
            throws SQLException {
        String headers = RecordRows.encodeHeaders(result.headers());
        long size =
                (long) result.bodyLength()
                        + (headers == null ? 0 : headers.getBytes(StandardCharsets.UTF_8).length);
        if (size > largestBody(packetLimit)) {
            throw new IdempotencyStorageException(
                    IdempotencyStorageException.Kind.REFUSED,
                    "JDBC store refused to store a result of "
                            + size
                            + " bytes ("
                            + result.bodyLength()
                            + " body bytes): the MariaDB server's max_allowed_packet is "
                            + packetLimit
                            + " bytes, and the driver may send each byte of a result as two."
                            + " Raise max_allowed_packet to at least 2 × idemkit.max-body-bytes + "
                            + STATEMENT_ROOM
                            + " bytes, or lower idemkit.max-body-bytes so that such results are"
                            + " delivered without being stored.",
                    null);
        }
        try (PreparedStatement ps =
                c.prepareStatement(ownConnection ? sql.complete : sql.completeInTransaction)) {
            ps.setLong(1, completedTtl.toMillis());
            ps.setInt(2, result.status());
            ps.setString(3, headers);
            ps.setBytes(4, result.body());
            ps.setString(5, key);
            ps.setString(6, token.value());
            return (ownConnection ? LockWait.update(sql.dialect, ps) : ps.executeUpdate()) == 1;
        }
    }
}
