package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OwnServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The HTTP scenarios on the JDBC store (C6, C12), on a real database that each subclass starts and
 * connects to ({@link #database()}): the records are rows of its table {@code idemkit_records}, a
 * corrupt record is a row there that the store cannot read, and a process that dies mid-request is
 * a server's JVM killed for real, on every runtime ({@link #serverToKill}).
 */
abstract class HttpJdbcScenarios extends HttpScenarios {

    /**
     * @return a new connection to the store's database, which the caller closes
     */
    abstract Connection database() throws SQLException;

    /**
     * @return the server {@link #crash_recovery_lease_expiry} kills, running: the class's own,
     *     where every scenario of the class runs on a server of its own, else one started beside
     *     the scenarios for that test alone ({@link #startInBackground})
     */
    abstract ServerToKill serverToKill() throws Exception;

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
     * The reference's crash-recovery-lease-expiry, with a real crash on every runtime: the JVM of
     * the server {@link #serverToKill} gives is killed with SIGKILL while the first request runs,
     * its claim stays in the table, and after a restart a duplicate is answered in progress until
     * the dead claim's lease lapses, then runs once. The lease is 18 s ({@code crashable-soon});
     * when a restart on a loaded machine leaves too little of it, the crash is staged once more on
     * the endpoint whose lease is 30 s ({@code crashable}).
     */
    @Test
    void crash_recovery_lease_expiry() throws Exception {
        ServerToKill target = serverToKill();
        pointAt(target);
        String path = "api/resources/crashable-soon";
        String key = key("K6");
        long leaseLeft = crashAndRestart(target, path, key);
        if (leaseLeft < ENOUGH_LEASE_LEFT_MILLIS) {
            // The restart outlasted most of the dead claim's lease (a loaded machine): the
            // scenario cannot be told from a takeover now. Staged once more, on a warm machine,
            // with a longer lease.
            System.out.printf(
                    "crash_recovery_lease_expiry: %d ms of the dead claim's lease left after the"
                            + " restart; staging it once more with a 30 s lease%n",
                    leaseLeft);
            path = "api/resources/crashable";
            key = key("K6-again");
            leaseLeft = crashAndRestart(target, path, key);
        }
        String staged = key;
        String stagedPath = path;
        assertThat(leaseLeft)
                .as("ms of the dead claim's lease left after the restart, twice too few")
                .isGreaterThanOrEqualTo(ENOUGH_LEASE_LEFT_MILLIS);
        Reply during = post(stagedPath, BODY_X, staged);
        Reply after =
                Awaitility.await()
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> post(stagedPath, BODY_X, staged), r -> r.status() != 423);

        assertThat(during.status()).as("within the dead claim's lease").isEqualTo(423);
        assertThat(after.status()).isEqualTo(201);
        assertThat(after.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).as("runs on the restarted server").isEqualTo(1);
        assertThat(http.get("api/events/" + effectiveKey(staged, stagedPath)).text())
                .startsWith("idempotency.conflict")
                .endsWith("idempotency.lease_reclaimed");
        Reply replay = post(stagedPath, BODY_X, staged);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }

    /**
     * Lease left to the dead claim when the duplicate is sent, at least: far more than one request
     * takes, so that its answer is the dead claim's, not a takeover's.
     */
    private static final long ENOUGH_LEASE_LEFT_MILLIS = 5_000;

    /**
     * Kills the server while it runs a keyed request, checks that its claim outlives it, and starts
     * it again.
     *
     * @return how much of the dead claim's lease was left once the server answered again, in ms on
     *     the database's clock
     */
    private long crashAndRestart(ServerToKill target, String path, String key) throws Exception {
        CompletableFuture<Reply> doomed =
                CompletableFuture.supplyAsync(() -> post(path, BODY_X, key, DELAY, "60000"));
        awaitCalls(1);

        target.server().kill();

        assertThat(doomed)
                .failsWithin(30, TimeUnit.SECONDS)
                .withThrowableThat()
                .withMessageContaining("request failed");
        try (Connection c = database()) {
            assertThat(storedState(c, effectiveKey(key, path)))
                    .as("the dead server's claim outlives it")
                    .isEqualTo("CLAIMED");
        }
        target.server().start(target.root().resolve("api/calls/probe"));
        pointAt(target);
        try (Connection c = database()) {
            return leaseLeftMillis(c, effectiveKey(key, path));
        }
    }

    /**
     * @return {@code lease_until} of the key's row minus the database's clock now, in ms
     */
    private static long leaseLeftMillis(Connection database, String effectiveKey)
            throws SQLException {
        String now =
                database.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres")
                        ? "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint"
                        : "CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
        try (PreparedStatement query =
                database.prepareStatement(
                        "SELECT lease_until - "
                                + now
                                + " FROM idemkit_records WHERE idem_key = ?")) {
            query.setString(1, effectiveKey);
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).as("the dead claim's row").isTrue();
                return row.getLong(1);
            }
        }
    }

    /**
     * A server that {@link #crash_recovery_lease_expiry} kills and starts again, running the
     * scenarios' application on the class's store and database.
     *
     * @param server the server
     * @param war the application on it
     */
    record ServerToKill(OwnServer server, WebArchive war) {

        /**
         * @return the application's root on the server
         */
        URI root() {
            return server.application(war);
        }
    }

    /**
     * Starts a server of the test's own, of the execution's runtime ({@link OwnServer#of}), for a
     * class whose scenarios run on the server Arquillian manages, which a test cannot kill. It
     * starts in the background, beside the class's other scenarios, so that the crash test does not
     * wait out a server's start; the class closes it when it ends.
     *
     * @param server the server, not started; made before Arquillian deploys the class's
     *     application, since WildFly records that deployment in the configuration a server of the
     *     test's own copies, and a copy that holds it does not boot ({@code WFLYCTL0212: Duplicate
     *     resource})
     * @param war the scenarios' application on the class's store and database, the one {@code
     *     server} was made with
     * @return the server, once it has started; a server that fails to start fails the future
     */
    static CompletableFuture<ServerToKill> startInBackground(OwnServer server, WebArchive war) {
        return CompletableFuture.supplyAsync(
                () -> {
                    ServerToKill target = new ServerToKill(server, war);
                    try {
                        server.start(target.root().resolve("api/calls/probe"));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                    return target;
                });
    }

    /** From now on, the scenarios' requests ({@link #base}, {@link #http}) go to {@code target}. */
    private void pointAt(ServerToKill target) throws Exception {
        base = target.root().toURL();
        http = new HttpCalls(target.root());
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
