package io.idemkit.store.mongo;

/**
 * The clock-skew tests on a MongoDB 8.0 sharded cluster, through two mongos routers, every
 * collection sharded on _id. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersShardedClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.sharded();
    }
}
