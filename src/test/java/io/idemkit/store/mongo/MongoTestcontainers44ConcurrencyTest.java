package io.idemkit.store.mongo;

/**
 * The race tests on a MongoDB 4.4 replica set, the oldest supported version. Skipped without
 * Docker.
 */
@RequiresDocker
class MongoTestcontainers44ConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet44();
    }
}
