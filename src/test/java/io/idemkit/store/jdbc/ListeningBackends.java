package io.idemkit.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The backends of the test PostgreSQL whose last statement was the {@code LISTEN} on a table's
 * channel ({@link CompletionNotices#channel}), as {@code pg_stat_activity} shows them: a store's
 * listening connection, seen from the database.
 */
final class ListeningBackends {

    private static final String LISTENING = " FROM pg_stat_activity WHERE query = ?";

    private ListeningBackends() {}

    /**
     * @return how many backends listen on {@code table}'s channel
     */
    static int count(String table) throws SQLException {
        try (Connection c = Databases.postgres().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*)" + LISTENING)) {
            ps.setString(1, "LISTEN " + CompletionNotices.channel(table));
            try (ResultSet rows = ps.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    /**
     * Ends them as a database restart would ({@code pg_terminate_backend}).
     *
     * @return how many were ended
     */
    static int terminate(String table) throws SQLException {
        try (Connection c = Databases.postgres().getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT pg_terminate_backend(pid)" + LISTENING)) {
            ps.setString(1, "LISTEN " + CompletionNotices.channel(table));
            int terminated = 0;
            try (ResultSet rows = ps.executeQuery()) {
                while (rows.next()) {
                    terminated += rows.getBoolean(1) ? 1 : 0;
                }
            }
            return terminated;
        }
    }
}
