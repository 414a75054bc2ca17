package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.ServerAddress;
import com.mongodb.bulk.WriteConcernError;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.it.harness.TestPorts;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

/**
 * A write the write concern did not confirm is told apart from a server that could not be reached
 * (C9): each message says what happened and what it means for the key.
 */
class MongoFailureMessageTest {

    private static final String KEY = "a".repeat(64);

    private static MongoWriteConcernException writeConcernTimeout() {
        return new MongoWriteConcernException(
                new WriteConcernError(
                        64,
                        "WriteConcernFailed",
                        "waiting for replication timed out",
                        new BsonDocument()),
                null,
                new ServerAddress());
    }

    @Test
    void writeConcernTimeout_saysTheWriteMayHaveLandedAndHoldsTheKey() {
        IdempotencyStorageException e = DriverFailures.failure("claim", KEY, writeConcernTimeout());

        assertThat(e.getMessage())
                .startsWith("MongoDB claim failed (MongoWriteConcernException, code 64)")
                .contains("did not confirm it within idemkit.mongo.timeout")
                .contains("holds the key until its lease ends")
                .contains("under fail-open the operation runs unprotected")
                .doesNotContain("unreachable");
        assertThat(e.kind()).isEqualTo(IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED);
    }

    @Test
    void writeConcernTimeoutInsideAClientSideTimeout_isStillReportedAsAWriteConcernTimeout() {
        MongoOperationTimeoutException csot =
                new MongoOperationTimeoutException("Operation timed out", writeConcernTimeout());

        IdempotencyStorageException e = DriverFailures.failure("complete", KEY, csot);

        assertThat(e.getMessage()).contains("did not confirm it").doesNotContain("unreachable");
        assertThat(e.kind()).isEqualTo(IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED);
    }

    @Test
    void upsertTheRouterCannotTarget_saysTheCollectionIsShardedOnAnotherKey() {
        IdempotencyStorageException e =
                DriverFailures.failure(
                        "claim", KEY, FailingMongo.commandError(61, "ShardKeyNotFound"));

        assertThat(e.getMessage())
                .startsWith("MongoDB claim failed (MongoCommandException, code 61)")
                .contains("sharded on a key other than _id")
                .contains("Shard it on {_id: 1}");
        assertThat(e.kind()).isEqualTo(IdempotencyStorageException.Kind.FAILED);
    }

    @Test
    void unreachableServer_saysNothingIsKnownToBeWritten() throws IOException {
        int port = TestPorts.next();
        MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        InProcessMongo.freshSettings()
                                .withUri("mongodb://127.0.0.1:" + port)
                                .withTimeout(Duration.ofMillis(300)),
                        Clock.systemUTC());
        try {
            String key = key();
            assertThatThrownBy(() -> store.claim(key, FINGERPRINT, VERSION, LONG))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining(
                            "MongoDB is unreachable or slower than idemkit.mongo.timeout")
                    .hasMessageContaining("nothing is known to have been written")
                    .hasMessageNotContaining("write concern")
                    .hasMessageNotContaining(key)
                    .extracting(e -> ((IdempotencyStorageException) e).kind())
                    .isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
        } finally {
            store.close();
        }
    }
}
