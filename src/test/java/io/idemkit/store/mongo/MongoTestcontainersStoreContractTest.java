package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The store contract suite against a real MongoDB 7 single-member replica set, with {@code
 * majority} write concern, wherever Docker runs. Skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainersStoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.container();
    }
}
