package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerDescription;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.testsupport.CapturedLog;
import java.time.Clock;
import java.time.Duration;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;

/**
 * What the store does through two {@code mongos} routers of a real sharded cluster (C9): it sees a
 * router, says at INFO that {@code $$NOW} is each router's clock, takes the pipeline path, and
 * refuses at start a collection sharded on a key other than {@code _id}. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersShardedTest {

    /** Started on first use, so that nothing starts where the class is skipped. */
    private static RealMongo mongo() {
        return RealMongo.sharded();
    }

    @Test
    void theDriverSpreadsCommandsOverBothRouters() {
        MongoClient client = mongo().sharedClient();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                client.getClusterDescription().getType() == ClusterType.SHARDED
                                        && client
                                                        .getClusterDescription()
                                                        .getServerDescriptions()
                                                        .stream()
                                                        .filter(ServerDescription::isOk)
                                                        .count()
                                                == 2);
    }

    @Test
    void throughMongos_theStoreSaysWhoseClockItIs_andTakesThePipelinePath() {
        MongoStoreSettings settings = mongo().preparedSettings().withWriteConcern("majority");
        try (CapturedLog log = CapturedLog.of(Connection.class);
                MongoIdempotencyStore store =
                        new MongoIdempotencyStore(
                                mongo().sharedClient(), settings, Clock.systemUTC())) {
            assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);

            assertThat(store.stampsWithServerClock()).isTrue();
            assertThat(log.messages(Level.INFO))
                    .singleElement()
                    .asString()
                    .contains("pipeline path")
                    .contains("through mongos");
        } finally {
            mongo().raw(settings.collection()).drop();
        }
    }

    @Test
    void collectionShardedOnAnotherKey_isRefusedAtStartWithWhatToDo() {
        MongoStoreSettings settings = InProcessMongo.freshSettings().withWriteConcern("majority");
        mongo().shard(settings.collection(), new BsonDocument("tenant", new BsonInt32(1)));
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(mongo().sharedClient(), settings, Clock.systemUTC())) {
            assertThatThrownBy(() -> store.claim(key(), FINGERPRINT, VERSION, LONG))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("sharded on {\"tenant\": 1}")
                    .hasMessageContaining("Shard it on {_id: 1}");
        } finally {
            mongo().raw(settings.collection()).drop();
        }
    }
}
