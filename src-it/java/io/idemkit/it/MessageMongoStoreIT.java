package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import io.idemkit.store.mongo.MongoStoreSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The queue vectors with the MongoDB store (the in-process MongoDB-wire server lives in this test's
 * JVM, so it outlives the Liberty process), and what only a store outside the server can show: a
 * consumer killed mid-run (the reference's queue-crash-recovery), and a storage outage.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the messaging server of these tests is Open Liberty's embedded one")
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
        WebArchive war =
                war(
                        APP,
                        "idemkit.store=mongo\n"
                                + "idemkit.mongo.uri="
                                + ItMongo.uri(mongo)
                                + "\nidemkit.mongo.database="
                                + DATABASE
                                + "\nidemkit.mongo.timeout=1s\n");
        server =
                new LibertyServer(
                        "idemkit-message-mongo", LibertyServer.freePort(), war, messaging(APP));
        app = server.application(war);
        start(server, app);
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

    @Test
    void queue_crash_recovery() throws Exception {
        String key = "Q3-" + tag;
        String effectiveKey =
                EffectiveKey.forMethod(
                        key,
                        ScopeResolver.SINGLE_TENANT_SCOPE,
                        "io.idemkit.it.message.OrdersBean",
                        "onMessage(jakarta.jms.Message)void");
        send("block", key, 1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("blocked") == 1);
        Document claimed = record(effectiveKey);
        assertThat(claimed.getString("state")).isEqualTo("CLAIMED");
        ClaimToken deadToken = new ClaimToken(claimed.getString("claim_token"));

        server.kill();
        start(server, app);

        // The persistent message comes back after the restart; the dead claim's lease (8 s)
        // runs out; then one run, on this server, and the acknowledgement.
        awaitAllAcknowledged(1);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(count("done")).isEqualTo(1);
        Document completed = record(effectiveKey);
        assertThat(completed.getString("state")).isEqualTo("COMPLETED");
        assertThat(completed.getString("claim_token")).isNotEqualTo(deadToken.value());
        // The dead consumer's late completion is fenced out.
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        MongoStoreSettings.forUri(ItMongo.uri(mongo)).withDatabase(DATABASE),
                        Clock.systemUTC())) {
            boolean zombie =
                    store.complete(
                            effectiveKey,
                            deadToken,
                            new StoredResult(
                                    200, List.of(), "zombie".getBytes(StandardCharsets.UTF_8)),
                            Duration.ofHours(1));
            assertThat(zombie).isFalse();
        }
        assertThat(record(effectiveKey).getString("claim_token"))
                .isEqualTo(completed.getString("claim_token"));
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

    private static Document record(String effectiveKey) {
        try (MongoClient client = MongoClients.create(ItMongo.uri(mongo))) {
            return client.getDatabase(DATABASE)
                    .getCollection("idemkit_records")
                    .find(new Document("_id", effectiveKey))
                    .first();
        }
    }
}
