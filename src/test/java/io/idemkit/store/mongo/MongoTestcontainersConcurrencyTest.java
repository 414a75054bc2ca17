package io.idemkit.store.mongo;

/**
 * The Concurrency tests on a real MongoDB 7 replica set, where the store takes the pipeline path.
 * Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.container();
    }
}
