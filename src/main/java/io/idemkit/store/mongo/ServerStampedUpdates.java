package io.idemkit.store.mongo;

import com.mongodb.client.MongoCollection;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The server-stamped {@link UpdateForm} (MongoDB 4.2+), and the probe that tells whether a server
 * supports it: update pipelines that write the same documents as {@link ClientStampedUpdates}, but
 * every date is the server's own {@code $$NOW} at the moment it applies the write, plus a lease or
 * retention, so that no stamp ages in transit. Every constant is wrapped in {@code $literal},
 * because in a pipeline a string that starts with {@code $} (a fingerprint may) would be read as a
 * field path.
 *
 * <p>{@link PipelineProbe} sends every stage built here, in one pipeline, before the store takes
 * this path. mongo-java-server does not run pipelines, so the tests here check these documents'
 * shape; the Testcontainers and {@code IDEMKIT_TEST_MONGO_URI} suites run them.
 */
final class ServerStampedUpdates implements UpdateForm {

    private static final String NOW = "$$NOW";

    private final MongoCollection<BsonDocument> records;
    private final Duration leaseGrace;

    ServerStampedUpdates(MongoCollection<BsonDocument> records, Duration leaseGrace) {
        this.records = records;
        this.leaseGrace = leaseGrace;
    }

    @Override
    public BsonDocument claimUnlessLive(
            BsonDocument liveFilter, String key, Claim claim, Duration leaseTtl) {
        return records.findOneAndUpdate(
                liveFilter,
                insertClaim(key, constants(claim), leaseTtl, leaseGrace),
                UpdateForm.upsertReturningAfter());
    }

    @Override
    public BsonDocument overwrite(BsonDocument filter, Claim claim, Duration leaseTtl) {
        return records.findOneAndUpdate(
                filter,
                takeOver(constants(claim), leaseTtl, leaseGrace),
                UpdateForm.returningBefore());
    }

    @Override
    public boolean completeClaim(
            BsonDocument filter, ClaimToken token, StoredResult result, Duration completedTtl) {
        return records.updateOne(filter, complete(token, result, completedTtl, leaseGrace))
                        .getMatchedCount()
                == 1;
    }

    @Override
    public boolean renewLease(BsonDocument filter, Duration leaseTtl) {
        return records.updateOne(filter, renew(leaseTtl, leaseGrace)).getMatchedCount() == 1;
    }

    /**
     * The claim with the dates the server stamped into {@code written}; with the estimated ones if
     * the document does not hold them as dates.
     */
    @Override
    public IdempotencyRecord claimed(String key, Claim claim, BsonDocument written) {
        return RecordReader.claimStamps(written)
                .map(stamps -> claim.record(key, stamps))
                .orElseGet(() -> claim.record(key));
    }

    @Override
    public boolean stampsWithServerClock() {
        return true;
    }

    @Override
    public String toString() {
        return "the pipeline path: dates are stamped by the server ($$NOW in update pipelines)";
    }

    private static NewClaim constants(Claim claim) {
        return new NewClaim(claim.fingerprint(), claim.fingerprintVersion(), claim.token());
    }

    /**
     * The first step of a claim, for an upsert on {@code {_id, lease_until: {$gt: T}}}: a document
     * the filter matched has a {@code lease_until} and is kept as it is ({@code $$ROOT}), so a
     * replay changes nothing; the upsert's new document has none and becomes the claim.
     */
    static List<BsonDocument> insertClaim(
            String key, NewClaim claim, Duration leaseTtl, Duration leaseGrace) {
        BsonDocument isInsert =
                new BsonDocument(
                        "$eq",
                        new BsonArray(
                                List.of(
                                        new BsonDocument(
                                                "$type",
                                                new BsonString("$" + RecordLayout.LEASE_UNTIL)),
                                        new BsonString("missing"))));
        BsonDocument fresh =
                new BsonDocument(RecordLayout.ID, literal(new BsonString(key)))
                        .append(RecordLayout.STATE, literal(claimedState()));
        claimFields(claim, leaseTtl, leaseGrace).forEach(fresh::append);
        BsonDocument choice =
                new BsonDocument(
                        "$cond", new BsonArray(List.of(isInsert, fresh, new BsonString("$$ROOT"))));
        return List.of(new BsonDocument("$replaceWith", choice));
    }

    /** Overwrites whatever the document held with a new claim, stamped by the server. */
    static List<BsonDocument> takeOver(NewClaim claim, Duration leaseTtl, Duration leaseGrace) {
        BsonDocument set = new BsonDocument(RecordLayout.STATE, literal(claimedState()));
        claimFields(claim, leaseTtl, leaseGrace).forEach(set::append);
        BsonArray unset = new BsonArray();
        for (String field : RecordLayout.RESULT_FIELDS) {
            unset.add(new BsonString(field));
        }
        return List.of(new BsonDocument("$set", set), new BsonDocument("$unset", unset));
    }

    /** Completes a claim: state, the server's completion time, retention, and the result. */
    static List<BsonDocument> complete(
            ClaimToken token, StoredResult result, Duration completedTtl, Duration leaseGrace) {
        BsonDocument set =
                new BsonDocument(
                                RecordLayout.STATE,
                                literal(new BsonString(RecordState.COMPLETED.name())))
                        .append(RecordLayout.COMPLETED_AT, new BsonString(NOW))
                        .append(RecordLayout.LEASE_UNTIL, nowPlus(completedTtl))
                        .append(RecordLayout.EXPIRE_AT, nowPlus(completedTtl.plus(leaseGrace)))
                        .append(
                                RecordLayout.RESPONSE_STATUS,
                                literal(new BsonInt32(result.status())))
                        .append(
                                RecordLayout.RESPONSE_HEADERS,
                                literal(RecordLayout.headers(result)))
                        .append(RecordLayout.RESPONSE_BODY, literal(new BsonBinary(result.body())))
                        .append(
                                RecordLayout.RESPONSE_BODY_CHECK,
                                literal(RecordLayout.bodyCheck(token, result)));
        return List.of(new BsonDocument("$set", set));
    }

    /** Moves a claim's lease to the server's now plus {@code leaseTtl}. */
    static List<BsonDocument> renew(Duration leaseTtl, Duration leaseGrace) {
        return List.of(
                new BsonDocument(
                        "$set",
                        new BsonDocument(RecordLayout.LEASE_UNTIL, nowPlus(leaseTtl))
                                .append(
                                        RecordLayout.EXPIRE_AT,
                                        nowPlus(leaseTtl.plus(leaseGrace)))));
    }

    /** What a new claim writes besides its id and state: everything but the dates is constant. */
    record NewClaim(String fingerprint, int fingerprintVersion, ClaimToken token) {}

    private static BsonDocument claimFields(NewClaim claim, Duration leaseTtl, Duration grace) {
        return new BsonDocument(
                        RecordLayout.FINGERPRINT, literal(new BsonString(claim.fingerprint())))
                .append(
                        RecordLayout.FINGERPRINT_VERSION,
                        literal(new BsonInt32(claim.fingerprintVersion())))
                .append(RecordLayout.CLAIM_TOKEN, literal(new BsonString(claim.token().value())))
                .append(RecordLayout.CLAIMED_AT, new BsonString(NOW))
                .append(RecordLayout.LEASE_UNTIL, nowPlus(leaseTtl))
                .append(RecordLayout.EXPIRE_AT, nowPlus(leaseTtl.plus(grace)));
    }

    private static BsonString claimedState() {
        return new BsonString(RecordState.CLAIMED.name());
    }

    /** {@code $$NOW + d}, in whole milliseconds: a date. */
    private static BsonDocument nowPlus(Duration d) {
        return new BsonDocument(
                "$add", new BsonArray(List.of(new BsonString(NOW), new BsonInt64(d.toMillis()))));
    }

    private static BsonDocument literal(BsonValue value) {
        return new BsonDocument("$literal", value);
    }
}
