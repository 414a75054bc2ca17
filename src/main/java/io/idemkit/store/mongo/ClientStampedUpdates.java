package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.RecordLayout.date;

import com.mongodb.client.MongoCollection;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;

/**
 * The client-stamped {@link UpdateForm}, for servers without update pipelines (mongo-java-server):
 * plain {@code $set} updates whose dates are the server time estimated when the write is sent
 * ({@link ServerTimeEstimate}), laid out as {@link RecordLayout} describes.
 */
final class ClientStampedUpdates implements UpdateForm {

    private final MongoCollection<BsonDocument> records;
    private final ServerTimeEstimate time;
    private final Duration leaseGrace;

    ClientStampedUpdates(
            MongoCollection<BsonDocument> records, ServerTimeEstimate time, Duration leaseGrace) {
        this.records = records;
        this.time = time;
        this.leaseGrace = leaseGrace;
    }

    @Override
    public BsonDocument claimUnlessLive(
            BsonDocument liveFilter, String key, Claim claim, Duration leaseTtl) {
        return records.findOneAndUpdate(
                liveFilter, insertClaim(claim), UpdateForm.upsertReturningAfter());
    }

    @Override
    public BsonDocument overwrite(BsonDocument filter, Claim claim, Duration leaseTtl) {
        return records.findOneAndUpdate(filter, takeOver(claim), UpdateForm.returningBefore());
    }

    @Override
    public boolean completeClaim(
            BsonDocument filter, ClaimToken token, StoredResult result, Duration completedTtl) {
        Instant completedAt = RecordLayout.millis(time.now());
        Instant retainUntil = RecordLayout.plus(completedAt, completedTtl);
        Instant expireAt = RecordLayout.plus(retainUntil, leaseGrace);
        return records.updateOne(
                                filter, complete(token, completedAt, retainUntil, expireAt, result))
                        .getMatchedCount()
                == 1;
    }

    @Override
    public boolean renewLease(BsonDocument filter, Duration leaseTtl) {
        Instant leaseUntil = RecordLayout.plus(RecordLayout.millis(time.now()), leaseTtl);
        return records.updateOne(
                                filter,
                                renew(leaseUntil, RecordLayout.plus(leaseUntil, leaseGrace)))
                        .getMatchedCount()
                == 1;
    }

    /** The claim as it was sent: the stored dates are the ones it carries. */
    @Override
    public IdempotencyRecord claimed(String key, Claim claim, BsonDocument written) {
        return claim.record(key);
    }

    @Override
    public boolean stampsWithServerClock() {
        return false;
    }

    @Override
    public String toString() {
        return "the fallback path: dates are stamped with the estimated server time";
    }

    // --- the update documents ------------------------------------------------------------------

    /**
     * The first step of a claim: inserts the claim when the key is absent, and changes nothing in a
     * document the filter matched, so that a replay writes nothing.
     */
    static BsonDocument insertClaim(Claim claim) {
        return new BsonDocument("$setOnInsert", claimFields(claim));
    }

    /** Overwrites whatever the document held with a new claim. */
    static BsonDocument takeOver(Claim claim) {
        BsonDocument unset = new BsonDocument();
        for (String field : RecordLayout.RESULT_FIELDS) {
            unset.append(field, new BsonString(""));
        }
        return new BsonDocument("$set", claimFields(claim)).append("$unset", unset);
    }

    private static BsonDocument claimFields(Claim claim) {
        return new BsonDocument(RecordLayout.STATE, new BsonString(RecordState.CLAIMED.name()))
                .append(RecordLayout.FINGERPRINT, new BsonString(claim.fingerprint()))
                .append(RecordLayout.FINGERPRINT_VERSION, new BsonInt32(claim.fingerprintVersion()))
                .append(RecordLayout.CLAIM_TOKEN, new BsonString(claim.token().value()))
                .append(RecordLayout.CLAIMED_AT, date(claim.claimedAt()))
                .append(RecordLayout.LEASE_UNTIL, date(claim.leaseUntil()))
                .append(RecordLayout.EXPIRE_AT, date(claim.expireAt()));
    }

    static BsonDocument complete(
            ClaimToken token,
            Instant completedAt,
            Instant retainUntil,
            Instant expireAt,
            StoredResult result) {
        BsonDocument set =
                new BsonDocument(RecordLayout.STATE, new BsonString(RecordState.COMPLETED.name()))
                        .append(RecordLayout.COMPLETED_AT, date(completedAt))
                        .append(RecordLayout.LEASE_UNTIL, date(retainUntil))
                        .append(RecordLayout.EXPIRE_AT, date(expireAt))
                        .append(RecordLayout.RESPONSE_STATUS, new BsonInt32(result.status()))
                        .append(RecordLayout.RESPONSE_HEADERS, RecordLayout.headers(result))
                        .append(RecordLayout.RESPONSE_BODY, new BsonBinary(result.body()))
                        .append(
                                RecordLayout.RESPONSE_BODY_CHECK,
                                RecordLayout.bodyCheck(token, result));
        return new BsonDocument("$set", set);
    }

    static BsonDocument renew(Instant leaseUntil, Instant expireAt) {
        return new BsonDocument(
                "$set",
                new BsonDocument(RecordLayout.LEASE_UNTIL, date(leaseUntil))
                        .append(RecordLayout.EXPIRE_AT, date(expireAt)));
    }
}
