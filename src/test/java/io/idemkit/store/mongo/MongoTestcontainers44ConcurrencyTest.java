package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The race tests on a MongoDB 4.4 replica set, the oldest supported version. Skipped without
 * Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainers44ConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet44();
    }
}
