package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TTL index on {@code expire_at} (C9): created once, under a fixed name; an index that is in
 * its way is reported as an actionable WARNING, never swallowed, and the store works regardless.
 *
 * <p>mongo-java-server accepts a conflicting index where MongoDB answers 85/86, so the store looks
 * before it creates; the same warning then covers both servers.
 */
class MongoTtlIndexTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    /** Held strongly: java.util.logging keeps loggers only weakly. */
    private static final Logger STORE_LOGS = Logger.getLogger("io.idemkit.store.mongo");

    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Handler capture =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                        warnings.add(record);
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    private MongoStoreSettings settings;
    private MongoCollection<BsonDocument> raw;

    @BeforeEach
    void captureWarnings() {
        STORE_LOGS.addHandler(capture);
        settings = InProcessMongo.freshSettings();
        raw = mongo.raw(settings.collection());
    }

    @AfterEach
    void stopCapturing() {
        STORE_LOGS.removeHandler(capture);
    }

    @Test
    void firstUse_createsTheTtlIndexOnceWithoutWarning() {
        CommandCounter commands = new CommandCounter();
        try (MongoClient client = mongo.client(commands);
                MongoIdempotencyStore first = store(client);
                MongoIdempotencyStore second = store(client)) {
            first.find(key());
            second.find(key());
        }

        BsonDocument index = indexNamed(TtlIndex.NAME);
        assertThat(index.getDocument("key"))
                .isEqualTo(new BsonDocument("expire_at", new BsonInt32(1)));
        assertThat(index.get("expireAfterSeconds").asNumber().intValue()).isZero();
        assertThat(commands.count("createIndexes")).isOne();
        assertThat(warnings).isEmpty();
    }

    @Test
    void existingIndexOnExpireAtWithOtherOptions_isReportedAndTheStoreStillWorks() {
        raw.createIndex(
                new BsonDocument("expire_at", new BsonInt32(1)),
                new IndexOptions().name("expire_at_1").expireAfter(3600L, TimeUnit.SECONDS));

        try (MongoIdempotencyStore store = store(mongo.sharedClient())) {
            String key = key();
            ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
            assertThat(store.complete(key, token, result("x"), LONG)).isTrue();
            assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        }

        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).getMessage())
                .contains(settings.collection())
                .contains("'expire_at_1'")
                .contains("expireAfterSeconds=3600")
                .contains(TtlIndex.NAME)
                .contains("dropIndex(\"expire_at_1\")")
                .contains("purgeExpired()");
        assertThat(indexNames()).doesNotContain(TtlIndex.NAME);
    }

    @Test
    void indexWithOurNameOnAnotherKey_isReported() {
        raw.createIndex(
                new BsonDocument("claimed_at", new BsonInt32(1)),
                new IndexOptions().name(TtlIndex.NAME));

        try (MongoIdempotencyStore store = store(mongo.sharedClient())) {
            assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
        }

        assertThat(warnings)
                .singleElement()
                .extracting(LogRecord::getMessage)
                .asString()
                .contains("{\"claimed_at\": 1}");
    }

    @Test
    void existingTtlIndexWithAnotherNameButTheSameEffect_isAcceptedSilently() {
        raw.createIndex(
                new BsonDocument("expire_at", new BsonInt32(1)),
                new IndexOptions().name("by_ops_team").expireAfter(0L, TimeUnit.SECONDS));

        try (MongoIdempotencyStore store = store(mongo.sharedClient())) {
            store.find(key());
        }

        assertThat(warnings).isEmpty();
        assertThat(indexNames()).doesNotContain(TtlIndex.NAME);
    }

    private MongoIdempotencyStore store(MongoClient client) {
        return new MongoIdempotencyStore(client, settings, Clock.systemUTC());
    }

    private List<String> indexNames() {
        List<String> names = new ArrayList<>();
        raw.listIndexes(BsonDocument.class).forEach(i -> names.add(i.getString("name").getValue()));
        return names;
    }

    private BsonDocument indexNamed(String name) {
        for (BsonDocument index : raw.listIndexes(BsonDocument.class)) {
            if (index.getString("name").getValue().equals(name)) {
                return index;
            }
        }
        throw new AssertionError("no index " + name + " in " + indexNames());
    }

    @Test
    void claimDeletedAsTheTtlMonitorDeletesIt_canNeitherBeRenewedNorCompletedByItsOwner() {
        // On real MongoDB the TTL monitor deletes a lapsed claim at lease plus grace; this server
        // never deletes, so the test deletes it as the monitor would, by _id.
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC())) {
            String key = key();
            ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
            mongo.raw(settings.collection()).deleteOne(RecordLayout.byKey(key));

            assertThat(store.renew(key, token, LONG)).isFalse();
            assertThat(store.complete(key, token, result("late"), LONG)).isFalse();
            assertThat(store.release(key, token)).isFalse();
            assertThat(store.find(key)).isEmpty();
            assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
        }
    }
}
