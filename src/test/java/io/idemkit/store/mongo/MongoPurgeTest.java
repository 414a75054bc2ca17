package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code purgeExpired} deletes claims and results past their expiry, and every corrupt kind of
 * record once its {@code expire_at} has passed or is missing, and never a live one (C9): a {@code
 * lease_until} of any type other than a date is no lease, including a Timestamp, a regex and
 * MaxKey, which sort above every date.
 */
class MongoPurgeTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final MongoStoreSettings settings = InProcessMongo.freshSettings();
    private final MongoIdempotencyStore store =
            new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC());
    private final MongoCollection<BsonDocument> raw = mongo.raw(settings.collection());

    @AfterEach
    void drop() {
        store.close();
        raw.drop();
    }

    private static Map<String, BsonValue> corruptLeases() {
        Map<String, BsonValue> leases = new LinkedHashMap<>();
        leases.put("null", BsonNull.VALUE);
        leases.put("a number", new BsonInt32(5));
        leases.put("a string", new BsonString("tomorrow"));
        leases.put("a document", new BsonDocument("at", new BsonInt32(1)));
        leases.put("binary", new BsonBinary(new byte[] {1}));
        leases.put("an ObjectId", new BsonObjectId());
        leases.put("a boolean", BsonBoolean.TRUE);
        leases.put("MinKey", new BsonMinKey());
        leases.put("a Timestamp", new BsonTimestamp(Integer.MAX_VALUE, 1));
        leases.put("a regex", new BsonRegularExpression(".*"));
        leases.put("MaxKey", new BsonMaxKey());
        return leases;
    }

    private BsonDocument plant(BsonValue lease, BsonValue expireAt) {
        BsonDocument doc =
                new BsonDocument("_id", new BsonString(key()))
                        .append("state", new BsonString("CLAIMED"))
                        .append("claim_token", new BsonString("0".repeat(32)));
        if (lease != null) {
            doc.append("lease_until", lease);
        }
        if (expireAt != null) {
            doc.append("expire_at", expireAt);
        }
        raw.insertOne(doc);
        return doc;
    }

    @Test
    void everyCorruptKindOfLease_pastOrWithoutExpireAt_isPurged() {
        store.now(); // start the store: index and clock
        BsonDateTime past = new BsonDateTime(mongo.serverTime().toEpochMilli() - 60_000);
        int planted = 0;
        for (BsonValue lease : corruptLeases().values()) {
            plant(lease, past);
            plant(lease, null);
            planted += 2;
        }
        plant(null, past);
        plant(null, null);
        planted += 2;

        assertThat(store.purgeExpired()).isEqualTo(planted);
        assertThat(raw.countDocuments()).isZero();
    }

    @Test
    void liveRecords_andCorruptOnesNotYetExpired_areKept() {
        String live = key();
        store.claim(live, FINGERPRINT, VERSION, LONG);
        Instant now = mongo.serverTime();
        BsonDateTime future = new BsonDateTime(now.plus(LONG).toEpochMilli());
        BsonDateTime past = new BsonDateTime(now.toEpochMilli() - 60_000);
        // A live date lease keeps a record whatever its expire_at says.
        plant(future, past);
        plant(future, null);
        // A corrupt lease whose expire_at is still ahead waits for it, as the TTL index would.
        plant(new BsonTimestamp(Integer.MAX_VALUE, 1), future);
        plant(new BsonString("tomorrow"), future);

        assertThat(store.purgeExpired()).isZero();
        assertThat(raw.countDocuments()).isEqualTo(5);
        assertThat(store.find(live)).isPresent();
    }

    @Test
    void purgeExpired_deletesOnlyRecordsPastTheirExpiry() {
        Duration grace = MongoStoreSettings.MINIMUM_LEASE_GRACE;
        MongoIdempotencyStore shortGrace =
                new MongoIdempotencyStore(
                        mongo.sharedClient(), settings.withLeaseGrace(grace), Clock.systemUTC());
        String lapsedClaim = key();
        String liveClaim = key();
        String lapsedResult = key();
        String liveResult = key();
        shortGrace.claim(lapsedClaim, FINGERPRINT, VERSION, LEASE);
        shortGrace.claim(liveClaim, FINGERPRINT, VERSION, LONG);
        shortGrace.complete(
                lapsedResult,
                shortGrace.claim(lapsedResult, FINGERPRINT, VERSION, LONG).token(),
                result("x"),
                LEASE);
        shortGrace.complete(
                liveResult,
                shortGrace.claim(liveResult, FINGERPRINT, VERSION, LONG).token(),
                result("x"),
                LONG);
        // Every short lease and retention ends at most LEASE after the server's time now, and
        // its expire_at the grace later.
        mongo.waitUntilPast(mongo.serverTime().plus(LEASE).plus(grace));

        assertThat(shortGrace.purgeExpired()).isEqualTo(2);

        assertThat(mongo.raw(settings.collection()).countDocuments()).isEqualTo(2);
        assertThat(shortGrace.find(liveClaim)).isPresent();
        assertThat(shortGrace.find(liveResult)).isPresent();
        assertThat(shortGrace.purgeExpired()).isZero();
    }

    @Test
    void purgeFilter_hasAPlainConditionOnExpireAtForTheIndex() {
        BsonDocument filter = RecordLayout.purgeable(Instant.parse("2026-01-01T00:00:00Z"));

        assertThat(filter.getArray("$and").get(0).asDocument().getArray("$or").getValues())
                .containsExactly(
                        new BsonDocument(
                                "expire_at",
                                new BsonDocument(
                                        "$lte",
                                        new BsonDateTime(
                                                Instant.parse("2026-01-01T00:00:00Z")
                                                        .toEpochMilli()))),
                        new BsonDocument("expire_at", BsonNull.VALUE));
        assertThat(filter.getArray("$and")).hasSize(3);
    }
}
