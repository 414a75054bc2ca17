package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The clock-skew tests on a MongoDB 4.4 replica set, the oldest supported version. Skipped without
 * Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainers44ClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet44();
    }
}
