package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.time.Clock;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

/**
 * The TTL monitor of a real MongoDB 8.0 (set to run every second) deletes a lapsed claim at lease
 * plus grace; its owner can then neither renew nor complete, and the key is new again (C9). A live
 * claim with a lease longer than the wait is kept. The claim's TTL field is its lease's end plus
 * the grace, and the monitor deletes nothing before it: a store that ignored the grace fails both
 * checks. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersTtlTest {

    @Test
    void lapsedClaimPastItsGrace_isDeletedByTheTtlMonitor_andItsOwnerCanNoLongerWrite() {
        RealMongo mongo = RealMongo.replicaSet80();
        MongoStoreSettings settings =
                mongo.preparedSettings()
                        .withWriteConcern("majority")
                        .withLeaseGrace(MongoStoreSettings.MINIMUM_LEASE_GRACE);
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC())) {
            String lapsed = key();
            String live = key();
            long claimedAt = System.nanoTime();
            ClaimToken token =
                    store.claim(lapsed, FINGERPRINT, VERSION, Duration.ofSeconds(1)).token();
            store.claim(live, FINGERPRINT, VERSION, LONG);

            // The TTL field is the lease's end plus the grace, on the server's clock.
            BsonDocument stored =
                    mongo.raw(settings.collection()).find(RecordLayout.byKey(lapsed)).first();
            assertThat(stored).isNotNull();
            assertThat(
                            stored.getDateTime(RecordLayout.EXPIRE_AT).getValue()
                                    - stored.getDateTime(RecordLayout.LEASE_UNTIL).getValue())
                    .isEqualTo(MongoStoreSettings.MINIMUM_LEASE_GRACE.toMillis());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () ->
                                    mongo.raw(settings.collection())
                                                    .countDocuments(RecordLayout.byKey(lapsed))
                                            == 0);
            // The monitor never deletes before the TTL field: not at the lease's end (1 s), only
            // after the grace too (the container shares this machine's clock).
            assertThat(Duration.ofNanos(System.nanoTime() - claimedAt))
                    .isGreaterThanOrEqualTo(
                            Duration.ofSeconds(1).plus(MongoStoreSettings.MINIMUM_LEASE_GRACE));

            assertThat(store.renew(lapsed, token, LONG)).isFalse();
            assertThat(store.complete(lapsed, token, result("late"), LONG)).isFalse();
            assertThat(store.find(live)).isPresent();
            assertThat(store.claim(lapsed, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
        } finally {
            mongo.raw(settings.collection()).drop();
        }
    }
}
