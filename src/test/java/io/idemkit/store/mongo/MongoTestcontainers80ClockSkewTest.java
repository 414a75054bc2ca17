package io.idemkit.store.mongo;

/** The clock-skew tests on a MongoDB 8.0 replica set. Skipped without Docker. */
@RequiresDocker
class MongoTestcontainers80ClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet80();
    }
}
