package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The store contract suite on a MongoDB 4.4 replica set, the oldest supported version. Skipped
 * without Docker.
 */
@RequiresDocker
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainers44StoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.replicaSet44();
    }
}
