package io.idemkit.store.mongo;

import org.testcontainers.junit.jupiter.Testcontainers;

/** The race tests on a MongoDB 8.0 replica set. Skipped without Docker. */
@Testcontainers(disabledWithoutDocker = true)
class MongoTestcontainers80ConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return RealMongo.replicaSet80();
    }
}
