package io.idemkit.store.mongo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import org.bson.BsonDocument;

/**
 * How the store's writes stamp the dates they store ({@code claimed_at}, {@code lease_until},
 * {@code expire_at}, {@code completed_at}), chosen once, when the store starts, by a probe ({@link
 * PipelineProbe}). Every write that stores a date goes through the form; filters, reads and purges
 * compare against the server's own clock ({@code $$NOW}) on either.
 *
 * <ul>
 *   <li>{@link ServerStampedUpdates}, the pipeline path (MongoDB 4.2+): the updates are pipelines
 *       that compute every date from the server's {@code $$NOW} when it applies the write, so a
 *       delay in transit cannot shorten a lease. The step-1 upsert keeps a matched document as it
 *       is, so a replay still changes nothing, and the pinned takeover is unchanged. A takeover
 *       returns the record with estimated stamps (its document before the write tells what was
 *       replaced); {@code find} returns the server's.
 *   <li>{@link ClientStampedUpdates}, the fallback path (servers without pipelines, such as
 *       mongo-java-server): the dates are the server time estimated from the injected clock and a
 *       measured offset ({@link ServerTimeEstimate}), computed when the write is sent; {@code
 *       $currentDate} cannot be used because it would also rewrite a live record that a claim must
 *       leave alone. A lease then loses what the write spends in transit, which {@link
 *       MongoLeaseRule} bounds.
 * </ul>
 *
 * Each write is one command on the collection the form was made for. Implementations are
 * thread-safe.
 */
interface UpdateForm {

    /**
     * The form the probe's answer calls for ({@link PipelineProbe}).
     *
     * @param runsPipelines whether the server runs update pipelines
     * @param records the store's collection
     * @param time the estimated server time, which a client-stamped write stamps with
     * @param leaseGrace how long past its lease or retention a record is kept ({@code expire_at})
     */
    static UpdateForm of(
            boolean runsPipelines,
            MongoCollection<BsonDocument> records,
            ServerTimeEstimate time,
            Duration leaseGrace) {
        return runsPipelines
                ? new ServerStampedUpdates(records, leaseGrace)
                : new ClientStampedUpdates(records, time, leaseGrace);
    }

    /**
     * The first step of a claim: {@code findOneAndUpdate(liveFilter, <insert the claim>, upsert,
     * return after)}. A document the filter matches is left as it is.
     *
     * @return the claim inserted, or the live document left untouched
     * @throws com.mongodb.MongoException a duplicate key when the filter did not match an existing
     *     document
     */
    BsonDocument claimUnlessLive(
            BsonDocument liveFilter, String key, Claim claim, Duration leaseTtl);

    /**
     * {@code findOneAndUpdate(filter, <overwrite with the claim, unset the result>, return
     * before)}.
     *
     * @return the document replaced, or {@code null} if the filter matched nothing
     */
    BsonDocument overwrite(BsonDocument filter, Claim claim, Duration leaseTtl);

    /**
     * {@code updateOne(filter, <complete with the result, retained for completedTtl>)}.
     *
     * @return whether the filter matched
     */
    boolean completeClaim(
            BsonDocument filter, ClaimToken token, StoredResult result, Duration completedTtl);

    /**
     * {@code updateOne(filter, <lease until now + leaseTtl>)}.
     *
     * @return whether the filter matched
     */
    boolean renewLease(BsonDocument filter, Duration leaseTtl);

    /** The record a claim that wrote {@code written} (its own insert) returns. */
    IdempotencyRecord claimed(String key, Claim claim, BsonDocument written);

    /**
     * @return whether the dates are the server's {@code $$NOW}
     */
    boolean stampsWithServerClock();

    /** The options of {@link #claimUnlessLive}: upsert, return the document after. */
    static FindOneAndUpdateOptions upsertReturningAfter() {
        return new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER);
    }

    /** The options of {@link #overwrite}: return the document before. */
    static FindOneAndUpdateOptions returningBefore() {
        return new FindOneAndUpdateOptions().returnDocument(ReturnDocument.BEFORE);
    }
}
