package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.time.Clock;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Round trips are the store's speed limit (C9): every command the driver sends is counted through
 * its {@code CommandListener}, after the store's first use has created the index and measured the
 * server clock.
 */
class MongoRoundTripTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final CommandCounter commands = new CommandCounter();
    private MongoClient client;
    private MongoStoreSettings settings;
    private MongoIdempotencyStore store;

    @BeforeEach
    void warmStore() {
        client = mongo.client(commands);
        settings = InProcessMongo.freshSettings();
        store = new MongoIdempotencyStore(client, settings, Clock.systemUTC());
        store.find(key());
        commands.reset();
    }

    @AfterEach
    void close() {
        store.close();
        client.close();
    }

    @Test
    void firstUse_listsAndCreatesTheIndexSamplesTheClockAndProbesForPipelinesOnce() {
        CommandCounter cold = new CommandCounter();
        try (MongoClient coldClient = mongo.client(cold);
                MongoIdempotencyStore fresh =
                        new MongoIdempotencyStore(
                                coldClient, InProcessMongo.freshSettings(), Clock.systemUTC())) {
            assertThat(cold.sent()).isEmpty();

            fresh.claim(key(), FINGERPRINT, VERSION, LONG);
            fresh.claim(key(), FINGERPRINT, VERSION, LONG);

            assertThat(cold.sent())
                    .containsExactly(
                            // The clock first: its reply also says whether this is a mongos.
                            "isMaster",
                            "isMaster",
                            "isMaster",
                            "listIndexes",
                            "createIndexes",
                            // The pipeline probe: on a server that does not parse pipelines, one
                            // findAndModify that matches nothing (PipelineProbe).
                            "findAndModify",
                            "findAndModify",
                            "findAndModify");
        }
    }

    @Test
    void freshClaim_isOneRoundTrip() {
        assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.NEW);

        assertThat(commands.sent()).containsExactly("findAndModify");
    }

    @Test
    void freshRequest_claimAndComplete_isTwoRoundTrips() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("x"), LONG);

        assertThat(commands.sent()).containsExactly("findAndModify", "update");
    }

    @Test
    void replay_isOneRoundTrip() {
        String key = key();
        store.complete(
                key, store.claim(key, FINGERPRINT, VERSION, LONG).token(), result("x"), LONG);
        commands.reset();

        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);

        assertThat(commands.sent()).containsExactly("findAndModify");
    }

    @Test
    void claimOnALiveLease_isOneRoundTrip() {
        String key = key();
        store.claim(key, FINGERPRINT, VERSION, LONG);
        commands.reset();

        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);

        assertThat(commands.sent()).containsExactly("findAndModify");
    }

    @Test
    void complete_isOneUpdate() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        commands.reset();

        store.complete(key, token, result("x"), LONG);

        assertThat(commands.sent()).containsExactly("update");
    }

    @Test
    void release_isOneDelete() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        commands.reset();

        assertThat(store.release(key, token)).isTrue();

        assertThat(commands.sent()).containsExactly("delete");
    }

    @Test
    void renew_isOneUpdate() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        commands.reset();

        assertThat(store.renew(key, token, LONG)).isTrue();

        assertThat(commands.sent()).containsExactly("update");
    }

    @Test
    void replay_writesNothing() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("x"), LONG);
        BsonDocument before = mongo.raw(settings.collection()).find().first();

        for (int i = 0; i < 3; i++) {
            assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        }

        assertThat(mongo.raw(settings.collection()).find().first()).isEqualTo(before);
    }

    @Test
    void claimOnALeaseInItsLastMargin_asksTheServerAndFindsItLive() {
        String key = key();
        ClaimToken owner =
                store.claim(key, FINGERPRINT, VERSION, ClaimAlgorithm.LIVE_MARGIN).token();
        commands.reset();

        ClaimResult second = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record().token()).isEqualTo(owner);
        // The insert that finds the key taken, the takeover the server refuses, the read.
        assertThat(commands.sent()).containsExactly("findAndModify", "findAndModify", "find");
    }

    @Test
    void reclaimOfAnExpiredLease_isTwoRoundTrips() {
        String key = key();
        ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo.waitUntilPast(first.record().leaseUntil());
        commands.reset();

        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.LEASE_RECLAIMED);

        assertThat(commands.sent()).containsExactly("findAndModify", "findAndModify");
    }

    @Test
    void find_isOneRoundTrip() {
        store.find(key());

        assertThat(commands.sent()).containsExactly("find");
    }
}
