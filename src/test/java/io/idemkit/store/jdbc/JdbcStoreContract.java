package io.idemkit.store.jdbc;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.testkit.IdempotencyStoreContract;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The store contract suite (C3) run against {@link JdbcIdempotencyStore} on one database; each
 * subclass names it. Every test gets a table of its own, created by the store ({@code
 * create-table}) and dropped afterwards.
 *
 * <p>{@link #elapse} waits in real time until the database's own clock, which takes every lease
 * decision, has moved that far: no database here can be given a manual clock.
 */
abstract class JdbcStoreContract extends IdempotencyStoreContract {

    private String table;
    private JdbcIdempotencyStore store;

    /**
     * @return the data source of the database under test, shared by the tests of the class
     */
    protected abstract DataSource dataSource();

    // jqwik runs the contract's random-argument property and ignores JUnit's lifecycle: the same
    // set-up and tear-down run around it too.
    @BeforeEach
    @BeforeProperty
    void openStore() {
        table = freshTable();
        store = new JdbcIdempotencyStore(dataSource(), new JdbcStoreSettings(table, true));
        store.start();
    }

    @AfterEach
    @AfterProperty
    void dropTable() throws SQLException {
        store.close();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
    }

    static String freshTable() {
        return "idemkit_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Override
    protected void elapse(Duration amount) {
        Instant target = store.now().plus(amount);
        Awaitility.await()
                .atMost(amount.plusSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> !store.now().isBefore(target));
    }

    @Override
    protected void plantUnreadableRecord(String key) {
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO "
                                        + table
                                        + " (idem_key, state, fingerprint, claim_token,"
                                        + " lease_until) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, key);
            ps.setString(2, "42");
            ps.setString(3, "f".repeat(64));
            ps.setString(4, "0".repeat(32));
            ps.setLong(5, store.now().plus(Duration.ofMinutes(10)).toEpochMilli());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the record's columns as they are, its version, token and times included. */
    @Override
    protected IdempotencyRecord plantRecord(IdempotencyRecord record) {
        boolean completed = record.state() == RecordState.COMPLETED;
        String columns =
                "idem_key, state, fingerprint, fingerprint_version, claim_token, claimed_at,"
                        + " lease_until"
                        + (completed
                                ? ", completed_at, response_status, response_headers,"
                                        + " response_body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                                : ") VALUES (?, ?, ?, ?, ?, ?, ?)");
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO " + table + " (" + columns)) {
            ps.setString(1, record.key());
            ps.setString(2, record.state().name());
            ps.setString(3, record.fingerprint());
            ps.setInt(4, record.fingerprintVersion());
            ps.setString(5, record.token().value());
            ps.setLong(6, record.claimedAt().toEpochMilli());
            // lease_until is the end of retention for a completed record.
            ps.setLong(7, (completed ? record.expiresAt() : record.leaseUntil()).toEpochMilli());
            if (completed) {
                ps.setLong(8, record.completedAt().toEpochMilli());
                ps.setInt(9, record.result().status());
                ps.setString(10, RecordRows.encodeHeaders(record.result().headers()));
                ps.setBytes(11, record.result().body());
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return record;
    }

    /**
     * @return the table of the current test
     */
    protected String table() {
        return table.toLowerCase(Locale.ROOT);
    }
}
