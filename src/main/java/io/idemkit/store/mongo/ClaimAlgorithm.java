package io.idemkit.store.mongo;

import com.mongodb.MongoException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.bson.BsonDocument;

/**
 * The claim (contract C9): how {@link MongoIdempotencyStore#claim} decides, in as few round trips
 * as it can, whether a key is new, taken over, or answered by the live record in it.
 *
 * <h2>The claim, step by step</h2>
 *
 * <ol>
 *   <li>{@code findOneAndUpdate({_id: key, lease_until: {$gt: T}}, <insert the claim>, upsert,
 *       return after)}, where T is the estimated server time plus {@link #LIVE_MARGIN}, and the
 *       update is, on the pipeline path, one {@code $replaceWith} whose {@code $cond} keeps a
 *       matched document as it is ({@code $$ROOT}) and builds the claim where the upsert found none
 *       (no {@code lease_until}), and on the fallback path {@code $setOnInsert: <new claim>}. A
 *       record whose lease (or, completed, whose retention) reaches beyond T is returned untouched:
 *       readable, it is {@link ClaimStatus#ALREADY_CLAIMED ALREADY_CLAIMED} or {@link
 *       ClaimStatus#ALREADY_COMPLETED ALREADY_COMPLETED}. An absent key is inserted with the new
 *       claim: the returned token is ours, {@link ClaimStatus#NEW NEW}.
 *   <li>Any other existing document (lapsed, about to lapse, or without a usable lease) makes the
 *       insert fail with a duplicate key, and so does an insert that lost a race. Then {@code
 *       findOneAndUpdate({_id: key, $expr: {$not: {$gt: ["$lease_until", "$$NOW"]}}}, {$set: <new
 *       claim>, $unset: <result>}, return before)} (as {@code $set} and {@code $unset} stages on
 *       the pipeline path) takes it over if, and only if, the server's own clock finds it not live,
 *       at the moment of the write; of racing claimers only the first still matches. The document
 *       returned tells what was replaced: a claim ({@link ClaimStatus#LEASE_RECLAIMED
 *       LEASE_RECLAIMED}), a lapsed result ({@code NEW}) or an unreadable document ({@code NEW},
 *       recovered from corrupt).
 *   <li>A takeover that matches nothing means the record is live by the server's clock (it was
 *       about to lapse, or a racer's claim is in it): one {@code find({_id: key, $expr: live})}
 *       returns it, and it is answered as in step 1.
 *   <li>An unreadable document that looks live is overwritten with the takeover's update, but
 *       filtered on its token, state and lease as read (each by value, by absence, or for a regex
 *       by "still not a string / date"). Every claim writes a fresh random token, and complete and
 *       renew rewrite the state or lease, so once one racer has overwritten it, no other racer's
 *       filter matches. The result is {@code NEW} with {@code recoveredFromCorrupt}.
 *   <li>A step that finds the document gone or changed starts the claim again, a bounded number of
 *       times.
 * </ol>
 *
 * So a fresh claim and a replay take one round trip; an expired lease or result two (the failed
 * insert, the takeover); a record in its last {@link #LIVE_MARGIN} and the loser of a race on a new
 * key three. Each write goes through the store's {@link UpdateForm}, which stamps its dates.
 *
 * <h2>What this relies on from MongoDB, and why it is built this way</h2>
 *
 * <ul>
 *   <li>MongoDB refuses {@code $expr} in the filter of any upsert ("$expr is not allowed in the
 *       query when upsert=true", the server's own {@code jstests/core/expr.js}; error 224
 *       QueryFeatureNotAllowed; JIRA DOCS-14158). mongo-java-server accepts such an upsert, but the
 *       store cannot use it. Step 1 therefore compares {@code lease_until} with a plain {@code $gt}
 *       on the estimated server time, which an upsert allows; its insert holds the filter's
 *       equality fields ({@code _id}) plus what the update writes: the {@code $setOnInsert} fields
 *       (the manual, "upsert behavior"), or the document the pipeline's {@code $replaceWith}
 *       builds, which repeats {@code _id}. The margin makes a record it takes as live live by the
 *       server's clock too, unless the estimate is off by more than the margin; it can never make
 *       the store take a record over, which only the server's {@code $$NOW} does (MongoDB 4.2+
 *       supports {@code $expr} with {@code $$NOW} in filters that do not upsert). A constant JVM
 *       clock skew cancels out of the estimate.
 *   <li>Because step 1's filter is not equality alone, the server does not retry its duplicate-key
 *       failure itself (it does so, from 4.2, only for upserts whose filter is equality on the
 *       unique index: JIRA SERVER-14322, SERVER-37124, SERVER-47212): the failure reaches the
 *       store, which is what starts step 2.
 *   <li>Duplicate key is recognized as {@code ErrorCategory.DUPLICATE_KEY} on a {@code
 *       MongoWriteException} or a {@code MongoCommandException}: {@code findAndModify} reports it
 *       as the latter (JIRA CSHARP-971 shows the same in another driver; {@link
 *       DriverFailures#isDuplicateKey}).
 * </ul>
 *
 * Thread-safe: it holds no state of its own.
 */
final class ClaimAlgorithm {

    /**
     * How far beyond the estimated server time a lease must reach for the first step of a claim to
     * take the record as live without asking the server's clock. It covers the estimate's error
     * (half a round trip, and a clock step too small to be noticed at once); a record closer to its
     * end than this goes to the server-decided takeover instead.
     */
    static final Duration LIVE_MARGIN = Duration.ofSeconds(2);

    private static final int MAX_CLAIM_ATTEMPTS = 5;
    private static final System.Logger LOG = System.getLogger(ClaimAlgorithm.class.getName());

    private final Duration leaseGrace;

    /**
     * @param leaseGrace how long past its lease a claim is kept ({@code expire_at})
     */
    ClaimAlgorithm(Duration leaseGrace) {
        this.leaseGrace = leaseGrace;
    }

    /** Claims {@code key} on a started store; driver failures are left to the caller. */
    ClaimResult claim(
            Connection.Ready c, String key, String fingerprint, int version, Duration leaseTtl) {
        for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
            Instant estimate = c.time().now();
            Claim claim = Claim.at(estimate, fingerprint, version, leaseTtl, leaseGrace);
            BsonDocument found;
            BsonDocument liveFilter = RecordLayout.liveBeyond(key, estimate.plus(LIVE_MARGIN));
            try {
                found = c.form().claimUnlessLive(liveFilter, key, claim, leaseTtl);
            } catch (MongoException e) {
                if (!DriverFailures.isDuplicateKey(e)) {
                    throw e;
                }
                // A document exists that is not surely live, or a racing claim inserted one:
                // the server's clock decides whether it may be taken over.
                Optional<ClaimResult> taken =
                        takeOver(c, key, RecordLayout.notLive(key), fingerprint, version, leaseTtl);
                if (taken.isPresent()) {
                    return taken.get();
                }
                found = c.records().find(RecordLayout.live(key)).first();
            }
            BsonDocument doc = found;
            if (doc == null) {
                continue; // deleted, or lapsed, between two steps: start again
            }
            if (RecordReader.carriesToken(doc, claim.token())) {
                return ClaimResult.of(ClaimStatus.NEW, c.form().claimed(key, claim, doc));
            }
            Optional<IdempotencyRecord> existing = RecordReader.read(doc);
            if (existing.isPresent()) {
                IdempotencyRecord live = existing.get();
                return ClaimResult.of(
                        live.state() == RecordState.COMPLETED
                                ? ClaimStatus.ALREADY_COMPLETED
                                : ClaimStatus.ALREADY_CLAIMED,
                        live);
            }
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "Record "
                                    + key
                                    + " is unreadable ("
                                    + RecordReader.unreadableReason(doc).orElse("?")
                                    + "); overwriting it");
            Optional<ClaimResult> taken =
                    takeOver(c, key, RecordLayout.pinned(key, doc), fingerprint, version, leaseTtl);
            if (taken.isPresent()) {
                return taken.get();
            }
        }
        throw new IdempotencyStorageException(
                "MongoDB claim gave up after "
                        + MAX_CLAIM_ATTEMPTS
                        + " attempts: the record kept changing under concurrent claims. Retry"
                        + " the operation.");
    }

    private Optional<ClaimResult> takeOver(
            Connection.Ready c,
            String key,
            BsonDocument filter,
            String fingerprint,
            int version,
            Duration leaseTtl) {
        Claim claim = Claim.at(c.time().now(), fingerprint, version, leaseTtl, leaseGrace);
        // The document before the write tells what was replaced. Server-stamped, the record
        // returned therefore carries the estimated stamps, not the server's (find reads those).
        BsonDocument replacedDoc = c.form().overwrite(filter, claim, leaseTtl);
        if (replacedDoc == null) {
            return Optional.empty();
        }
        IdempotencyRecord mine = claim.record(key);
        Optional<IdempotencyRecord> replaced = RecordReader.read(replacedDoc);
        if (replaced.isEmpty()) {
            return Optional.of(new ClaimResult(ClaimStatus.NEW, mine, true));
        }
        LOG.log(Level.DEBUG, () -> "Took over the lapsed record " + key);
        return Optional.of(
                ClaimResult.of(
                        replaced.get().state() == RecordState.CLAIMED
                                ? ClaimStatus.LEASE_RECLAIMED
                                : ClaimStatus.NEW,
                        mine));
    }
}
