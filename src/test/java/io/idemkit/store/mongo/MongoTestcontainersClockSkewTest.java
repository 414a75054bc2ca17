package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The ClockSkew tests on a real MongoDB 7 replica set, where the store takes the pipeline path.
 * Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.container();
    }
}
