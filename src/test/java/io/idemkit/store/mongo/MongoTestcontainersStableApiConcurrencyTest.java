package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The race tests on a MongoDB 8.0 replica set, through clients that declare the strict Stable API
 * v1. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersStableApiConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.strictStableApi();
    }
}
