package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The Concurrency tests on a real MongoDB 7 replica set, where the store takes the pipeline path.
 * Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.container();
    }
}
