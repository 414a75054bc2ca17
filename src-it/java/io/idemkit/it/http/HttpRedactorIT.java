package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.http.redact.CardPayments;
import io.idemkit.it.http.redact.RedactApplication;
import io.idemkit.testsupport.BsonText;
import java.net.URL;
import java.util.UUID;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The redactor hook on a real server with the MongoDB store (C4.10): the client that ran the
 * request receives the full card number, the raw MongoDB document never holds it, and a replay
 * serves the redacted copy. The in-process MongoDB-wire server lives in this test's JVM, so the
 * test reads the document as any other process would. It runs on every runtime: the application's
 * redactor is a plain CDI bean of the WAR.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpRedactorIT {

    private static final String DATABASE = "it_redact";
    private static final String COLLECTION = "records";
    private static final String MASKED = "************1111";

    // Started when the class loads: the deployment names its port.
    private static final MongoServer MONGO = ItMongo.start();

    @ArquillianResource URL base;

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "http-redact.war")
                        .addPackage(RedactApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.mongo.uri="
                                                + ItMongo.uri(MONGO)
                                                + "\nidemkit.mongo.database="
                                                + DATABASE
                                                + "\nidemkit.mongo.collection="
                                                + COLLECTION
                                                + "\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stopMongo() {
        MONGO.shutdownNow();
    }

    @Test
    void cardNumber_reachesTheFirstClient_neverTheStore_andTheReplayIsRedacted() throws Exception {
        HttpCalls http = new HttpCalls(base.toURI());
        String key = "charge-" + UUID.randomUUID();
        String body = "{\"amount\":100}";

        Reply first = http.postJson("api/payments", body, "Idempotency-Key", key);
        Reply replay = http.postJson("api/payments", body, "Idempotency-Key", key);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.text()).isEqualTo("{\"card\":\"" + CardPayments.CARD + "\",\"run\":1}");
        assertThat(first.header("Location")).endsWith("/payments/" + CardPayments.CARD);
        assertThat(first.has("Idempotency-Replayed")).isFalse();

        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.text()).isEqualTo("{\"card\":\"" + MASKED + "\",\"run\":1}");
        assertThat(replay.header("Location")).endsWith("/payments/" + MASKED);
        assertThat(http.get("api/payments/runs").text()).isEqualTo("1");

        BsonDocument raw = rawRecord(key);
        assertThat(raw).as("the record of the request").isNotNull();
        assertThat(BsonText.of(raw)).contains(MASKED).doesNotContain(CardPayments.CARD);
    }

    private BsonDocument rawRecord(String key) throws Exception {
        String effectiveKey =
                EffectiveKey.forHttp(
                        key,
                        ScopeResolver.SINGLE_TENANT_SCOPE,
                        "POST",
                        base.toURI().getPath() + "api/payments");
        try (MongoClient direct = MongoClients.create(ItMongo.uri(MONGO))) {
            return direct.getDatabase(DATABASE)
                    .getCollection(COLLECTION, BsonDocument.class)
                    .find(new BsonDocument("_id", new BsonString(effectiveKey)))
                    .first();
        }
    }
}
