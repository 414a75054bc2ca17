package io.idemkit.store.mongo;

/**
 * The Concurrency tests on mongo-java-server in this JVM: the fallback path. On a server and client
 * of their own, not the store tests' shared one: in some orders of the test classes, a fresh-clone
 * build failed the racing claims with "Prematurely reached end of stream" from the shared server,
 * which passed alone; the emulator closes a connection whose command it fails on, and such a
 * connection left in the shared client's pool is the likely cause (not proven).
 */
class MongoConcurrencyTest extends MongoConcurrencyContract {

    private static final InProcessMongo OWN = InProcessMongo.start();

    @Override
    MongoServerUnderTest mongo() {
        return OWN;
    }
}
