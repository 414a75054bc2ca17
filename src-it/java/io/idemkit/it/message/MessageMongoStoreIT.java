package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import io.idemkit.store.mongo.MongoStoreSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue vectors with the MongoDB store (the in-process MongoDB-wire server lives in this test's
 * JVM, so it outlives the Liberty process, and a consumer killed mid-run leaves its claim there),
 * and a storage outage, which only a store outside the server can show.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the messaging server of these tests is Open Liberty's embedded one")
class MessageMongoStoreIT extends MessageScenarios {

    private static final String APP = "message-mongo";
    private static final String DATABASE = "it_message";
    private static MongoServer mongo;
    private static int mongoPort;
    private static LibertyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        mongo = ItMongo.start();
        mongoPort = mongo.getLocalAddress().getPort();
        String storeConfig =
                "idemkit.store=mongo\n"
                        + "idemkit.mongo.uri="
                        + ItMongo.uri(mongo)
                        + "\nidemkit.mongo.database="
                        + DATABASE
                        + "\nidemkit.mongo.timeout=1s\n";
        WebArchive war = war(APP, storeConfig);
        server = new LibertyServer("idemkit-message-mongo", war, messaging(APP));
        server.addApplication(badLeaseWar(storeConfig));
        app = start(server, war);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
        if (mongo != null) {
            mongo.shutdownNow();
        }
    }

    @Override
    LibertyServer server() {
        return server;
    }

    @Override
    String refusal(String app) {
        return server.awaitRefusal(app);
    }

    @Override
    URI application() {
        return app;
    }

    @Override
    IdempotencyStore storeOfAnotherProcess() {
        return new MongoIdempotencyStore(
                MongoStoreSettings.forUri(ItMongo.uri(mongo)).withDatabase(DATABASE),
                Clock.systemUTC());
    }

    @Test
    void storageOutage_redeliversTheMessage_andCountsNoAttempt() throws Exception {
        int failuresBefore = countAll("store-failures");
        mongo.shutdownNow();
        try {
            send("ok", "outage-" + tag, 1);
            // More deliveries meet the outage (each waits out idemkit.mongo.timeout) than
            // max-attempts=3 would allow, had they counted.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> countAll("store-failures") - failuresBefore > 3);
            assertThat(count("runs")).isZero();
        } finally {
            mongo = ItMongo.start(mongoPort);
        }

        awaitAllAcknowledged(1);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(count("exhausted")).isZero();
    }
}
