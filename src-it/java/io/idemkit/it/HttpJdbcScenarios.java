package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * The HTTP scenarios on the JDBC store (C6, C12), on a real database that each subclass starts and
 * connects to ({@link #database()}): the records are rows of its table {@code idemkit_records}, a
 * corrupt record is a row there that the store cannot read, and the claim of a process that died is
 * staged through the application's store.
 */
abstract class HttpJdbcScenarios extends HttpScenarios {

    /**
     * @return a new connection to the store's database, which the caller closes
     */
    abstract Connection database() throws SQLException;

    @Test
    void theRecordsAreRowsOfTheStoresTable() throws Exception {
        Reply first = post("api/resources", BODY_X, key("J1"));

        assertThat(first.status()).isEqualTo(201);
        try (Connection c = database()) {
            assertThat(storedState(c, effectiveKey(key("J1"), "api/resources")))
                    .isEqualTo("COMPLETED");
        }
    }

    @Test
    void crash_recovery_lease_expiry() throws Exception {
        stagedCrashRecovery();
    }

    @Override
    void plantCorruptRecord(String effectiveKey) throws Exception {
        try (Connection c = database()) {
            plantUnreadableRow(c, effectiveKey);
        }
    }

    /**
     * @param database a connection to the JDBC store's database
     * @param effectiveKey a record's effective key
     * @return the {@code state} of its row in the table {@code idemkit_records}, or {@code null}
     *     when there is no row
     */
    static String storedState(Connection database, String effectiveKey) throws SQLException {
        try (PreparedStatement query =
                database.prepareStatement("SELECT state FROM idemkit_records WHERE idem_key = ?")) {
            query.setString(1, effectiveKey);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    /**
     * Plants, in the JDBC store's table, the row of {@code effectiveKey} as a broken writer could
     * leave it: a result that looks complete and live (until 2100) but whose stored headers cannot
     * be decoded, so that it cannot be read back as a record.
     *
     * @param database a connection to the JDBC store's database
     * @param effectiveKey the key of the row
     */
    static void plantUnreadableRow(Connection database, String effectiveKey) throws SQLException {
        try (PreparedStatement insert =
                database.prepareStatement(
                        "INSERT INTO idemkit_records (idem_key, state, fingerprint,"
                                + " fingerprint_version, claim_token, claimed_at, lease_until,"
                                + " completed_at, response_status, response_headers, response_body)"
                                + " VALUES (?, 'COMPLETED', ?, 1, ?, 0, 4102444800000, 0, 201,"
                                + " 'a header without an equals sign', ?)")) {
            insert.setString(1, effectiveKey);
            insert.setString(2, "f".repeat(64));
            insert.setString(3, "0".repeat(32));
            insert.setBytes(4, "{\"name\":\"planted\"}".getBytes(StandardCharsets.UTF_8));
            insert.executeUpdate();
        }
    }
}
