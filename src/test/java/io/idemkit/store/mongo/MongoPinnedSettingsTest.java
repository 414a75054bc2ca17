package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.ReadConcern;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import io.idemkit.spi.ClaimToken;
import io.idemkit.testsupport.CapturedLog;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the store pins whatever the application's client says (C9): an acknowledged write concern in
 * place of {@code w:0}, with one warning, and the {@code local} read concern in place of the
 * client's, so that the read after a lost race sees the winner. The commands are read as the driver
 * sends them to mongo-java-server.
 */
class MongoPinnedSettingsTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final MongoStoreSettings settings = InProcessMongo.freshSettings();
    private final Sent sent = new Sent();

    @AfterEach
    void drop() {
        mongo.raw(settings.collection()).drop();
    }

    private MongoClient client(WriteConcern writeConcern, ReadConcern readConcern) {
        return MongoClients.create(
                MongoClientSettings.builder()
                        .applyConnectionString(new ConnectionString(mongo.uri()))
                        .writeConcern(writeConcern)
                        .readConcern(readConcern)
                        .addCommandListener(sent)
                        .build());
    }

    @Test
    void unacknowledgedClientWriteConcern_isReplacedWithAnAcknowledgedOne_withOneWarning() {
        try (CapturedLog log = CapturedLog.of(Connection.class);
                MongoClient client = client(WriteConcern.UNACKNOWLEDGED, ReadConcern.DEFAULT);
                MongoIdempotencyStore store =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            String renewed = key();
            ClaimToken held = store.claim(renewed, FINGERPRINT, VERSION, LONG).token();
            String completed = key();
            ClaimToken token = store.claim(completed, FINGERPRINT, VERSION, LONG).token();

            // Under w:0 neither could tell whether its fenced filter matched.
            assertThat(store.renew(renewed, held, LONG)).isTrue();
            assertThat(store.complete(completed, token, result("x"), LONG)).isTrue();
            assertThat(store.release(renewed, held)).isTrue();

            List<BsonDocument> writes = sent.writes();
            assertThat(writes).hasSizeGreaterThanOrEqualTo(5);
            for (BsonDocument write : writes) {
                assertThat(write.getDocument("writeConcern", new BsonDocument()).get("w"))
                        .as(write.getFirstKey())
                        .isNotEqualTo(new BsonInt32(0));
            }
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .contains("unacknowledged (w:0)")
                    .contains("idemkit.mongo.write-concern=majority");
        }
    }

    @Test
    void acknowledgedClientWriteConcern_isKeptWithoutAWarning() {
        try (CapturedLog log = CapturedLog.of(Connection.class);
                MongoClient client = client(WriteConcern.W1, ReadConcern.DEFAULT);
                MongoIdempotencyStore store =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            store.claim(key(), FINGERPRINT, VERSION, LONG);

            assertThat(sent.writes())
                    .as("the claim's write was seen (allSatisfy holds on none)")
                    .isNotEmpty()
                    .allSatisfy(
                            write ->
                                    assertThat(write.getDocument("writeConcern").getInt32("w"))
                                            .isEqualTo(new BsonInt32(1)));
            assertThat(log.warnings()).isEmpty();
        }
    }

    @Test
    void majorityReadConcernOfTheClient_isPinnedToLocalForTheStoresReads() {
        try (MongoClient client = client(WriteConcern.ACKNOWLEDGED, ReadConcern.MAJORITY);
                MongoIdempotencyStore store =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            String key = key();
            store.claim(key, FINGERPRINT, VERSION, LONG);
            sent.clear();

            assertThat(store.find(key)).isPresent();

            assertThat(sent.named("find"))
                    .singleElement()
                    .satisfies(
                            find ->
                                    assertThat(find.getDocument("readConcern"))
                                            .isEqualTo(BsonDocument.parse("{level: 'local'}")));
        }
    }

    /** The commands the driver sent. */
    private static final class Sent implements CommandListener {
        private final List<BsonDocument> commands = new CopyOnWriteArrayList<>();

        @Override
        public void commandStarted(CommandStartedEvent event) {
            commands.add(event.getCommand().clone());
        }

        List<BsonDocument> named(String name) {
            return commands.stream().filter(c -> c.getFirstKey().equals(name)).toList();
        }

        /** The write commands: the claims' findAndModify, update and delete. */
        List<BsonDocument> writes() {
            return commands.stream()
                    .filter(
                            c ->
                                    List.of("findAndModify", "update", "delete")
                                            .contains(c.getFirstKey()))
                    .toList();
        }

        void clear() {
            commands.clear();
        }
    }
}
