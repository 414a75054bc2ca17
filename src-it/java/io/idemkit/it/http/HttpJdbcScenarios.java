package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OwnServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The HTTP scenarios on the JDBC store (C6, C12), on a real database that each subclass starts and
 * connects to ({@link #database()}): the records are rows of its table {@code idemkit_records}, a
 * corrupt record is a row there that the store cannot read, and a process that dies mid-request is
 * killed for real where the class runs its own server ({@link #ownServer}), and staged through the
 * application's store where Arquillian manages it.
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

    /**
     * The reference's crash-recovery-lease-expiry. Where the class runs a server of its own ({@link
     * #ownServer}), the crash is real: the server's JVM is killed with SIGKILL while the first
     * request runs, its claim stays in the table, and after a restart a duplicate is answered in
     * progress until the dead claim's lease (30 s) lapses, then runs once. Where Arquillian manages
     * the server, the crash is staged: a claim the application's store makes and never ends.
     */
    @Test
    void crash_recovery_lease_expiry() throws Exception {
        OwnServer server = ownServer();
        if (server == null) {
            stagedCrashRecovery();
            return;
        }
        String path = "api/resources/crashable";
        String key = key("K6");
        CompletableFuture<Reply> doomed =
                CompletableFuture.supplyAsync(() -> post(path, BODY_X, key, DELAY, "60000"));
        awaitCalls(1);

        server.kill();

        assertThat(doomed)
                .failsWithin(30, TimeUnit.SECONDS)
                .withThrowableThat()
                .withMessageContaining("request failed");
        try (Connection c = database()) {
            assertThat(storedState(c, effectiveKey(key, path)))
                    .as("the dead server's claim outlives it")
                    .isEqualTo("CLAIMED");
        }
        server.start(base.toURI().resolve("api/calls/probe"));
        Reply during = post(path, BODY_X, key);
        Reply after =
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> post(path, BODY_X, key), r -> r.status() != 423);

        assertThat(during.status()).as("within the dead claim's lease").isEqualTo(423);
        assertThat(after.status()).isEqualTo(201);
        assertThat(after.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).as("runs on the restarted server").isEqualTo(1);
        assertThat(http.get("api/events/" + effectiveKey(key, path)).text())
                .startsWith("idempotency.conflict")
                .endsWith("idempotency.lease_reclaimed");
        Reply replay = post(path, BODY_X, key);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }

    /**
     * @return the server of this class's own, which a test may kill and start again; {@code null}
     *     where Arquillian manages the server
     */
    OwnServer ownServer() {
        return null;
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
