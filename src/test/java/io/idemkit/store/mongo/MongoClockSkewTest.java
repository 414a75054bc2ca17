package io.idemkit.store.mongo;

/** The ClockSkew tests on mongo-java-server in this JVM: the fallback path. */
class MongoClockSkewTest extends MongoClockSkewContract {
    @Override
    MongoServerUnderTest mongo() {
        return InProcessMongo.shared();
    }
}
