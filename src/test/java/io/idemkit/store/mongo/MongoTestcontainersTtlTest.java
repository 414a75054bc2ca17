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
import org.junit.jupiter.api.Test;

/**
 * The TTL monitor of a real MongoDB 8.0 (set to run every second) deletes a lapsed claim at lease
 * plus grace; its owner can then neither renew nor complete, and the key is new again (C9). A live
 * claim with a lease longer than the wait is kept. Skipped without Docker.
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
            ClaimToken token =
                    store.claim(lapsed, FINGERPRINT, VERSION, Duration.ofSeconds(1)).token();
            store.claim(live, FINGERPRINT, VERSION, LONG);

            Awaitility.await()
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(
                            () ->
                                    mongo.raw(settings.collection())
                                                    .countDocuments(RecordLayout.byKey(lapsed))
                                            == 0);

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
