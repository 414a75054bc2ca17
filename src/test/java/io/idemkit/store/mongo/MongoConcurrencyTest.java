package io.idemkit.store.mongo;

/** The Concurrency tests on mongo-java-server in this JVM: the fallback path. */
class MongoConcurrencyTest extends MongoConcurrencyContract {
    @Override
    MongoServerUnderTest mongo() {
        return InProcessMongo.shared();
    }
}
