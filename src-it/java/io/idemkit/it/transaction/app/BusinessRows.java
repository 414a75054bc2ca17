package io.idemkit.it.transaction.app;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/** The business write of the test methods: one row per run, on the JTA data source. */
final class BusinessRows {

    private BusinessRows() {}

    static void insert(DataSource business, String key, String tag) {
        try (Connection connection = business.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO payments (pay_key, tag) VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setString(2, tag);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the business insert failed: " + e, e);
        }
    }
}
