package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The clock-skew tests on a MongoDB 8.0 replica set, through clients that declare the strict Stable
 * API v1. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersStableApiClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.strictStableApi();
    }
}
