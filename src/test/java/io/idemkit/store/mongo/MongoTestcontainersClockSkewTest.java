package io.idemkit.store.mongo;

/**
 * The ClockSkew tests on a real MongoDB 7 replica set, where the store takes the pipeline path.
 * Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.container();
    }
}
