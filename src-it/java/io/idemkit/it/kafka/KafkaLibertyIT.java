package io.idemkit.it.kafka;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The queue vectors on Kafka (C17) on Open Liberty: {@code mpReactiveMessaging-3.0} and its own
 * connector, {@code liberty-kafka}, which loads the Kafka client from the application's WAR; the
 * JDBC store on a PostgreSQL this test starts, through the server's data source. A server of the
 * test's own, so that the shared servers keep their feature lists.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "an Open Liberty server of the test's own; WildFly runs the scenarios in"
                        + " KafkaWildFlyIT, and Payara Micro 6 has no MicroProfile Reactive"
                        + " Messaging")
class KafkaLibertyIT extends KafkaScenarios {

    private static final String APP = "kafka-jdbc";
    private static final String CONNECTOR = "liberty-kafka";
    private static final String FEATURES =
            "  <featureManager>\n"
                    + "    <feature>mpReactiveMessaging-3.0</feature>\n"
                    + "  </featureManager>\n";

    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void startServer() throws Exception {
        liberty =
                ItPostgres.onLiberty(
                        "idemkit-kafka",
                        war(APP, CONNECTOR, ItPostgres.STORE_CONFIG),
                        FEATURES,
                        PROBE,
                        badLeaseWar(CONNECTOR));
        http = new HttpCalls(liberty.app());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    @Override
    LibertyServer server() {
        return liberty.server();
    }

    @Override
    String refusal(String app) {
        return liberty.server().awaitRefusal(app);
    }

    @Override
    URI application() {
        return liberty.app();
    }

    @Override
    IdempotencyStore storeOfAnotherProcess() {
        return new JdbcIdempotencyStore(
                liberty.database().getPostgresDatabase(), JdbcStoreSettings.defaults());
    }
}
