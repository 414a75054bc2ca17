package io.idemkit.store.mongo;

import static io.idemkit.testsupport.CardRedaction.CARD;
import static io.idemkit.testsupport.CardRedaction.MASKED;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.testsupport.BsonText;
import io.idemkit.testsupport.CardRedaction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MongoDB store keeps only the redactor's copy of a result (C4.10, C9): the raw document, every
 * string and every binary in it, never holds the card number; a redactor that throws leaves no
 * document at all.
 */
class MongoRedactionTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private MongoClient client;
    private MongoStoreSettings settings;
    private MongoIdempotencyStore store;
    private IdempotencyEngine engine;

    @BeforeEach
    void open() {
        client = mongo.client();
        settings = InProcessMongo.freshSettings();
        store = new MongoIdempotencyStore(client, settings, Clock.systemUTC());
        engine =
                new IdempotencyEngine(
                        store, event -> {}, new LeaseHeartbeat(false), Ticker.system());
    }

    @AfterEach
    void close() {
        engine.close();
        store.close();
        client.close();
    }

    @Test
    void rawDocument_holdsTheRedactedCopy_neverTheCard() {
        String key = Fixtures.key();

        finish(key, CardRedaction.MASK);

        BsonDocument raw = mongo.raw(settings.collection()).find().first();
        assertThat(raw).isNotNull();
        String everything = BsonText.of(raw);
        assertThat(everything).contains(MASKED).doesNotContain(CARD);
        assertThat(
                        new String(
                                store.find(key).orElseThrow().result().body(),
                                StandardCharsets.UTF_8))
                .isEqualTo("{\"card\":\"" + MASKED + "\"}");
    }

    @Test
    void throwingRedactor_leavesNoDocument() {
        finish(
                Fixtures.key(),
                result -> {
                    throw new IllegalStateException(CARD);
                });

        assertThat(mongo.raw(settings.collection()).countDocuments()).isZero();
    }

    private void finish(String key, IdempotencyRedactor redactor) {
        OperationPolicy policy =
                new OperationPolicy(
                                Duration.ofSeconds(30),
                                Duration.ofHours(1),
                                Duration.ZERO,
                                StorageErrorMode.FAIL_CLOSED,
                                CacheableStatuses.parse("2xx"))
                        .withRedactor(redactor);
        Operation operation = new Operation(key, Fixtures.FINGERPRINT, 1, policy, "http");
        ((Admission.Proceed) engine.admit(operation)).execution().finish(CardRedaction.charged());
    }
}
