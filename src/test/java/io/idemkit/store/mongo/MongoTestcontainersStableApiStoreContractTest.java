package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The store contract suite on a MongoDB 8.0 replica set, through clients that declare the strict
 * Stable API v1. Skipped without Docker.
 */
@RequiresDocker
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainersStableApiStoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.strictStableApi();
    }
}
