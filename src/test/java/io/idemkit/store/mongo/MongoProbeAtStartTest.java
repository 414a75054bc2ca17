package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.FailingMongo.ADDRESS;
import static io.idemkit.store.mongo.FailingMongo.commandError;
import static io.idemkit.store.mongo.FailingMongo.reply;
import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoNotPrimaryException;
import com.mongodb.client.MongoDatabase;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.testsupport.CapturedLog;
import java.time.Clock;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The probe inside the store's start (C9): a failure that is not a refusal fails that use as a
 * storage failure and is not remembered, so the next use probes again; the path chosen is logged
 * once, at INFO, with its reason. A proxy in front of mongo-java-server throws the driver's own
 * exceptions ({@link FailingMongo}).
 */
class MongoProbeAtStartTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final MongoStoreSettings settings = InProcessMongo.freshSettings();
    private final CapturedLog log = CapturedLog.of(Connection.class);

    @AfterEach
    void drop() {
        log.close();
        mongo.raw(settings.collection()).drop();
    }

    private MongoIdempotencyStore storeWith(FailingMongo.Rule rule) {
        MongoDatabase db =
                FailingMongo.database(mongo.sharedClient().getDatabase(settings.database()), rule);
        return new MongoIdempotencyStore(db, settings, Clock.systemUTC());
    }

    @Test
    void stepdownDuringTheProbe_failsThatUse_andTheNextUseProbesAgain() {
        FailingMongo.PipelineUpdates rule =
                new FailingMongo.PipelineUpdates(
                        n ->
                                n == 1
                                        ? new MongoNotPrimaryException(
                                                reply(10107, "NotWritablePrimary"), ADDRESS)
                                        : null);
        try (MongoIdempotencyStore store = storeWith(rule)) {
            assertThatThrownBy(() -> store.claim(key(), FINGERPRINT, VERSION, LONG))
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("NotWritablePrimary")
                    .hasCauseInstanceOf(MongoNotPrimaryException.class);
            assertThat(store.stampsWithServerClock()).isFalse();
            assertThat(log.messages(Level.INFO)).as("no path chosen yet").isEmpty();

            assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
            assertThat(rule.count()).as("the second use asked again").isEqualTo(2);
            assertThat(log.messages(Level.INFO))
                    .singleElement()
                    .asString()
                    .contains(settings.collection())
                    .contains("fallback path")
                    .contains("without reading it");

            store.claim(key(), FINGERPRINT, VERSION, LONG);
            assertThat(rule.count()).as("once started, it asks no more").isEqualTo(2);
            assertThat(log.messages(Level.INFO)).hasSize(1);
        }
    }

    @Test
    void refusalOfThePipeline_choosesTheFallbackOnce_andSaysWhyAtInfo() {
        FailingMongo.PipelineUpdates rule =
                new FailingMongo.PipelineUpdates(
                        n ->
                                n == 1
                                        ? commandError(72, "InvalidOptions")
                                        : commandError(238, "NotImplemented"));
        try (MongoIdempotencyStore store = storeWith(rule)) {
            assertThat(store.claim(key(), FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
            store.claim(key(), FINGERPRINT, VERSION, LONG);

            assertThat(store.stampsWithServerClock()).isFalse();
            assertThat(rule.count()).isEqualTo(2);
            assertThat(log.messages(Level.INFO))
                    .singleElement()
                    .asString()
                    .contains("fallback path")
                    .contains("refused")
                    .contains("NotImplemented, code 238");
        }
    }

    @Test
    void unauthorizedProbe_failsThatUseAndChoosesNothing() {
        FailingMongo.PipelineUpdates rule =
                FailingMongo.PipelineUpdates.always(commandError(13, "Unauthorized"));
        try (MongoIdempotencyStore store = storeWith(rule)) {
            for (int use = 1; use <= 2; use++) {
                assertThatThrownBy(() -> store.claim(key(), FINGERPRINT, VERSION, LONG))
                        .isInstanceOf(IdempotencyStorageException.class)
                        .hasMessageContaining("Unauthorized");
            }
            assertThat(rule.count()).as("each use asked").isEqualTo(2);
            assertThat(store.stampsWithServerClock()).isFalse();
            assertThat(log.messages(Level.INFO)).isEmpty();
        }
    }
}
