package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.FailingMongo.commandError;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoNamespace;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.idemkit.IdempotencyStorageException;
import java.util.UUID;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shard key check reads {@code config.collections} as a {@code mongos} serves it; here that
 * collection is a plain one on mongo-java-server, holding entries in the shape MongoDB writes
 * ({@code {_id: "db.coll", key: {...}}}). The Testcontainers sharded cluster runs it for real.
 */
class ShardKeyCheckTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final String configName = "config_" + UUID.randomUUID().toString().replace("-", "");
    private final MongoDatabase config = mongo.sharedClient().getDatabase(configName);
    private final MongoCollection<BsonDocument> collections =
            config.getCollection("collections", BsonDocument.class);
    private final MongoNamespace records = new MongoNamespace("idemkit", "idemkit_records");

    @AfterEach
    void drop() {
        config.drop();
    }

    private void plant(String entry) {
        collections.insertOne(BsonDocument.parse(entry));
    }

    @Test
    void collectionShardedOnAnotherKey_isRefusedWithWhatToDo() {
        plant("{_id: 'idemkit.idemkit_records', key: {tenant: 1, _id: 1}}");

        assertThatThrownBy(() -> ShardKeyCheck.check(config, records))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("idemkit.idemkit_records")
                .hasMessageContaining("sharded on {\"tenant\": 1, \"_id\": 1}")
                .hasMessageContaining("Shard it on {_id: 1} or {_id: \"hashed\"}");
    }

    @Test
    void collectionShardedOnId_rangedOrHashed_isAccepted() {
        plant("{_id: 'idemkit.idemkit_records', key: {_id: 'hashed'}}");
        assertThatCode(() -> ShardKeyCheck.check(config, records)).doesNotThrowAnyException();

        collections.deleteMany(new BsonDocument());
        plant("{_id: 'idemkit.idemkit_records', key: {_id: 1}}");
        assertThatCode(() -> ShardKeyCheck.check(config, records)).doesNotThrowAnyException();
    }

    @Test
    void unshardedOrDroppedCollection_isAccepted() {
        plant("{_id: 'idemkit.other', key: {tenant: 1}}");
        assertThatCode(() -> ShardKeyCheck.check(config, records)).doesNotThrowAnyException();

        plant("{_id: 'idemkit.idemkit_records', key: {tenant: 1}, dropped: true}");
        assertThatCode(() -> ShardKeyCheck.check(config, records)).doesNotThrowAnyException();
    }

    @Test
    void noPrivilegeToReadConfig_leavesTheQuestionOpen() {
        MongoDatabase refusing =
                FailingMongo.database(
                        config,
                        (target, method, args) ->
                                method.getName().equals("find")
                                        ? commandError(13, "Unauthorized")
                                        : null);
        plant("{_id: 'idemkit.idemkit_records', key: {tenant: 1}}");

        assertThatCode(() -> ShardKeyCheck.check(refusing, records)).doesNotThrowAnyException();
    }
}
