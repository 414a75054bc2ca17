package io.idemkit.store.mongo;

import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture of the MongoDB store's own tests: a store per test, over the shared in-process
 * MongoDB-wire server's client, on a collection of its own.
 */
abstract class FreshStoreTest {

    static final InProcessMongo mongo = InProcessMongo.shared();

    MongoStoreSettings settings;
    MongoIdempotencyStore store;

    @BeforeEach
    void newStore() {
        settings = InProcessMongo.freshSettings();
        store = new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC());
    }

    @AfterEach
    void closeStore() {
        store.close();
    }
}
