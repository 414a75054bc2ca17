package io.idemkit.store.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoNamespace;
import com.mongodb.client.MongoDatabase;
import io.idemkit.IdempotencyStorageException;
import java.lang.System.Logger.Level;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonString;

/**
 * Refuses a collection sharded on a key other than {@code _id} (C9), checked when the store starts
 * through a {@code mongos}. Every claim is an upsert whose filter fixes {@code _id} only; on a
 * collection sharded on another key the router cannot target it, and every claim fails ("Failed to
 * target upsert by query", ShardKeyNotFound) although the probe, which upserts nothing, passed. The
 * check reads the collection's entry in {@code config.collections}; best effort: a server that
 * refuses the read (no privilege on {@code config}) leaves the question open, and the store goes
 * on. Stateless.
 */
final class ShardKeyCheck {

    private static final System.Logger LOG = System.getLogger(ShardKeyCheck.class.getName());

    private ShardKeyCheck() {}

    /**
     * @param config the cluster's {@code config} database
     * @param records the store's collection
     * @throws IdempotencyStorageException if the collection is sharded on another key
     * @throws com.mongodb.MongoException if the server cannot be reached
     */
    static void check(MongoDatabase config, MongoNamespace records) {
        BsonDocument entry;
        try {
            entry =
                    config.getCollection("collections", BsonDocument.class)
                            .find(new BsonDocument("_id", new BsonString(records.getFullName())))
                            .first();
        } catch (MongoCommandException e) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "Cannot read the shard key of "
                                    + records
                                    + " from config.collections ("
                                    + e.getErrorCodeName()
                                    + "); not checked");
            return;
        }
        if (entry == null || entry.getBoolean("dropped", BsonBoolean.FALSE).getValue()) {
            return; // not sharded
        }
        BsonDocument key = entry.getDocument("key", new BsonDocument());
        if (key.isEmpty() || (key.size() == 1 && key.containsKey(RecordLayout.ID))) {
            return;
        }
        throw new IdempotencyStorageException(
                "MongoDB store cannot use "
                        + records
                        + ": it is sharded on "
                        + key.toJson()
                        + ", and every claim is an upsert that names only _id, which the router"
                        + " cannot target on that key. Shard it on {_id: 1} or {_id: \"hashed\"},"
                        + " leave it unsharded, or point idemkit.mongo.collection at another"
                        + " collection.");
    }
}
