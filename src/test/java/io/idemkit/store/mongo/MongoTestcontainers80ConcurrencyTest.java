package io.idemkit.store.mongo;

/** The race tests on a MongoDB 8.0 replica set. Skipped without Docker. */
@RequiresDocker
class MongoTestcontainers80ConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet80();
    }
}
