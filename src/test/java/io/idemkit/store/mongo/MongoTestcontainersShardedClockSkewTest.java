package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The clock-skew tests on a MongoDB 8.0 sharded cluster, through two mongos routers, every
 * collection sharded on _id. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainersShardedClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.sharded();
    }
}
