package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/** The clock-skew tests on a MongoDB 8.0 replica set. Skipped without Docker. */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainers80ClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet80();
    }
}
