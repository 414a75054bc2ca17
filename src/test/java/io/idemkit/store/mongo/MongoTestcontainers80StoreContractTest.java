package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/** The store contract suite on a MongoDB 8.0 replica set. Skipped without Docker. */
@RequiresDocker
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainers80StoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.replicaSet80();
    }
}
