package io.idemkit.store.mongo;

/**
 * The clock-skew tests on a MongoDB 4.4 replica set, the oldest supported version. Skipped without
 * Docker.
 */
@RequiresDocker
class MongoTestcontainers44ClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet44();
    }
}
