package io.idemkit.store.mongo;

/**
 * The race tests on a MongoDB 8.0 sharded cluster, through two mongos routers, every collection
 * sharded on _id. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersShardedConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.sharded();
    }
}
