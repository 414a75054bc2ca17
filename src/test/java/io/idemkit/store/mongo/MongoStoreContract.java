package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.IdempotencyStoreContract;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.awaitility.Awaitility;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store contract suite (C3) run against {@link MongoIdempotencyStore} on some MongoDB-wire
 * server; each subclass names the server. Every test gets a store on a collection of its own,
 * dropped afterwards, so the suite can also run against a shared real server.
 *
 * <p>{@link #elapse} waits in real time until the server's own clock, which takes every lease
 * decision, has moved that far: no server here can be given a manual clock (mongo-java-server
 * evaluates {@code $$NOW} with {@code Instant.now()}).
 */
abstract class MongoStoreContract extends IdempotencyStoreContract {

    private MongoStoreSettings settings;
    private MongoIdempotencyStore store;

    /**
     * @return a client of the server under test, shared by the tests of the class
     */
    protected abstract MongoClient client();

    /**
     * @return the settings of the store under test, before its collection is chosen
     */
    protected MongoStoreSettings baseSettings() {
        return MongoStoreSettings.defaults();
    }

    // jqwik runs the contract's random-argument property and ignores JUnit's lifecycle: the same
    // set-up and tear-down run around it too.
    /**
     * @return whether the server runs update pipelines, so that the store must take the pipeline
     *     path ({@code $$NOW} in its writes): real MongoDB 4.2+ does, mongo-java-server does not
     */
    protected abstract boolean serverRunsPipelines();

    /**
     * Prepares the new collection of a test before its store uses it (a sharded cluster shards it);
     * nothing by default.
     *
     * @param collection the collection's name in the test database
     */
    protected void prepareCollection(String collection) {}

    @Test
    void firstUse_probesTheServerAndTakesTheMatchingWritePath() {
        assertThat(store.stampsWithServerClock()).as("before first use").isFalse();

        store.claim(newKey(), "f".repeat(64), 1, Duration.ofMinutes(1));

        assertThat(store.stampsWithServerClock()).isEqualTo(serverRunsPipelines());
        assertThat(raw().countDocuments()).as("the probe writes nothing").isEqualTo(1);
    }

    @BeforeEach
    @BeforeProperty
    void openStore() {
        settings =
                baseSettings()
                        .withDatabase(InProcessMongo.DATABASE)
                        .withCollection(InProcessMongo.freshSettings().collection());
        prepareCollection(settings.collection());
        store = new MongoIdempotencyStore(client(), settings, Clock.systemUTC());
    }

    @AfterEach
    @AfterProperty
    void dropCollection() {
        store.close();
        raw().drop();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Override
    protected void elapse(Duration amount) {
        Instant target = serverTime().plus(amount);
        Awaitility.await()
                .atMost(amount.plusSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> !serverTime().isBefore(target));
    }

    @Override
    protected Optional<StoredResult> resultTooLargeToStore() {
        return Optional.of(
                new StoredResult(
                        200, List.of(), new byte[(int) MongoIdempotencyStore.MAX_DOCUMENT_BYTES]));
    }

    @Override
    protected void plantUnreadableRecord(String key) {
        Instant now = serverTime();
        raw().insertOne(
                        new BsonDocument("_id", new BsonString(key))
                                .append("state", new BsonInt32(42))
                                .append("fingerprint", new BsonString("f".repeat(64)))
                                .append("claim_token", new BsonString("0".repeat(32)))
                                .append(
                                        "lease_until",
                                        new BsonDateTime(now.toEpochMilli() + 600_000)));
    }

    /** Inserts the record's fields as the stores lay them out, its version, token and times too. */
    @Override
    protected IdempotencyRecord plantRecord(IdempotencyRecord record) {
        raw().insertOne(Fixtures.document(record, settings.leaseGrace()));
        return record;
    }

    private MongoCollection<BsonDocument> raw() {
        return client().getDatabase(settings.database())
                .getCollection(settings.collection(), BsonDocument.class);
    }

    private Instant serverTime() {
        return MongoServerUnderTest.serverTime(client());
    }
}
