package io.idemkit.store.mongo;

import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The store's attempt counts ({@code countAttempt}, contract C11.3): one document per count in the
 * records' collection, {@code {_id: <attempts key>, attempts: <n>, expire_at: <date>}}, apart from
 * any record (the caller derives its key so that it is never an effective key). The TTL index and
 * {@code purgeExpired} delete it once {@code expire_at} has passed, as they do records; until then,
 * a count past its {@code expire_at} by the server's clock ({@code $$NOW}), or one that is not a
 * number, counts as absent and starts over at 1.
 *
 * <p>At most three commands, none a read then a write: add one to a live count; else start an
 * expired or unreadable one over; else insert a new one, and if another caller inserted it first (a
 * duplicate key), add one to theirs. {@code expire_at} is the estimated server time plus the
 * retention: when a count starts over is not a safety decision, and the estimate keeps one
 * implementation for servers with and without update pipelines.
 */
final class AttemptCounts {

    static final String ATTEMPTS = "attempts";

    private static final FindOneAndUpdateOptions RETURN_AFTER =
            new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER);
    private static final int TRIES = 3;

    private AttemptCounts() {}

    /**
     * @param records the records' collection
     * @param key the count's key
     * @param now the estimated server time
     * @param retention how long the count is kept after this change
     * @return the count, this attempt included
     * @throws MongoException if the server fails, or the count kept changing under three tries
     */
    static long count(
            MongoCollection<BsonDocument> records, String key, Instant now, Duration retention) {
        BsonValue expireAt = RecordLayout.date(RecordLayout.plus(now, retention));
        for (int i = 0; i < TRIES; i++) {
            BsonDocument added =
                    records.findOneAndUpdate(
                            live(key),
                            new BsonDocument("$inc", new BsonDocument(ATTEMPTS, new BsonInt64(1)))
                                    .append(
                                            "$set",
                                            new BsonDocument(RecordLayout.EXPIRE_AT, expireAt)),
                            RETURN_AFTER);
            if (added != null) {
                return added.getNumber(ATTEMPTS).longValue();
            }
            BsonDocument restarted =
                    records.findOneAndUpdate(
                            notLive(key), new BsonDocument("$set", first(expireAt)), RETURN_AFTER);
            if (restarted != null) {
                return 1;
            }
            try {
                records.insertOne(
                        RecordLayout.byKey(key)
                                .append(ATTEMPTS, new BsonInt64(1))
                                .append(RecordLayout.EXPIRE_AT, expireAt));
                return 1;
            } catch (MongoException e) {
                if (!DriverFailures.isDuplicateKey(e)) {
                    throw e;
                }
                // Another caller inserted it meanwhile: count on theirs.
            }
        }
        throw new MongoException(
                "the attempt count " + key + " changed under " + TRIES + " tries in a row");
    }

    private static BsonDocument first(BsonValue expireAt) {
        return new BsonDocument(ATTEMPTS, new BsonInt64(1))
                .append(RecordLayout.EXPIRE_AT, expireAt);
    }

    /** A count whose {@code expire_at} is after the server's now, and that is a number. */
    private static BsonDocument live(String key) {
        return RecordLayout.byKey(key)
                .append(ATTEMPTS, new BsonDocument("$type", new BsonString("number")))
                .append("$expr", unexpired());
    }

    /** A document under the key that {@link #live} does not match. */
    private static BsonDocument notLive(String key) {
        return RecordLayout.byKey(key)
                .append(
                        "$or",
                        new BsonArray(
                                List.of(
                                        new BsonDocument(
                                                ATTEMPTS,
                                                new BsonDocument(
                                                        "$not",
                                                        new BsonDocument(
                                                                "$type",
                                                                new BsonString("number")))),
                                        new BsonDocument(
                                                "$expr",
                                                new BsonDocument(
                                                        "$not",
                                                        new BsonArray(List.of(unexpired())))))));
    }

    private static BsonDocument unexpired() {
        return new BsonDocument(
                "$gt",
                new BsonArray(
                        List.of(
                                new BsonString("$" + RecordLayout.EXPIRE_AT),
                                new BsonString("$$NOW"))));
    }
}
