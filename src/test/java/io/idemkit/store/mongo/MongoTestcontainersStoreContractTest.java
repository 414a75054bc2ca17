package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The store contract suite against a real MongoDB 7 single-member replica set, with {@code
 * majority} write concern, wherever Docker runs. Skipped without Docker.
 */
@RequiresDocker
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainersStoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.container();
    }
}
