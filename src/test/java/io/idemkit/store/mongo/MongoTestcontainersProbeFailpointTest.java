package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import java.time.Clock;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transient failure during the probe, on a real MongoDB 8.0 started with test commands enabled:
 * the server's {@code failCommand} fail point fails the probe's first {@code findAndModify} once (a
 * stepdown, a node shutting down, a dropped connection). That use fails as a storage failure, and
 * the next use probes again and takes the pipeline path (C9). The client does not retry writes, so
 * that the failure reaches the store. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersProbeFailpointTest {

    private static final String APP = "idemkit-probe-failpoint";

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{errorCode: 10107}", // NotWritablePrimary: a stepdown
                "{errorCode: 189}", // PrimarySteppedDown
                "{errorCode: 91}", // ShutdownInProgress
                "{closeConnection: true}"
            })
    void transientFailureDuringTheProbe_failsThatUse_andTheNextUseTakesThePipelinePath(
            String failure) {
        RealMongo mongo = RealMongo.replicaSet80();
        MongoStoreSettings settings = mongo.preparedSettings().withWriteConcern("majority");
        BsonDocument data = BsonDocument.parse(failure);
        data.put("failCommands", BsonDocument.parse("{c: ['findAndModify']}").get("c"));
        data.put("appName", new BsonString(APP));
        try (MongoClient client =
                        mongo.client(options -> options.applicationName(APP).retryWrites(false));
                MongoIdempotencyStore store =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            failOnce(mongo, data);
            try {
                assertThatThrownBy(() -> store.claim(key(), FINGERPRINT, VERSION, LONG))
                        .isInstanceOf(IdempotencyStorageException.class);
                assertThat(store.stampsWithServerClock()).isFalse();
            } finally {
                off(mongo);
            }

            assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
            assertThat(store.stampsWithServerClock()).isTrue();
        } finally {
            mongo.raw(settings.collection()).drop();
        }
    }

    private static void failOnce(RealMongo mongo, BsonDocument data) {
        mongo.sharedClient()
                .getDatabase("admin")
                .runCommand(
                        BsonDocument.parse("{configureFailPoint: 'failCommand', mode: {times: 1}}")
                                .append("data", data));
    }

    private static void off(RealMongo mongo) {
        mongo.sharedClient()
                .getDatabase("admin")
                .runCommand(BsonDocument.parse("{configureFailPoint: 'failCommand', mode: 'off'}"));
    }
}
