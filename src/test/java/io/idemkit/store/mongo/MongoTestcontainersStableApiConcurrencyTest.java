package io.idemkit.store.mongo;

/**
 * The race tests on a MongoDB 8.0 replica set, through clients that declare the strict Stable API
 * v1. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersStableApiConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.strictStableApi();
    }
}
