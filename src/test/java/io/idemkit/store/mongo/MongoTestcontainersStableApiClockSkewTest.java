package io.idemkit.store.mongo;

/**
 * The clock-skew tests on a MongoDB 8.0 replica set, through clients that declare the strict Stable
 * API v1. Skipped without Docker.
 */
@RequiresDocker
class MongoTestcontainersStableApiClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.strictStableApi();
    }
}
