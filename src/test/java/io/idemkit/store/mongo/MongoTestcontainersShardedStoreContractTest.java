package io.idemkit.store.mongo;

import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The store contract suite on a MongoDB 8.0 sharded cluster, through two mongos routers, every
 * collection sharded on _id. Skipped without Docker.
 */
@RequiresDocker
@AddLifecycleHook(RealMongo.DockerRequired.class)
class MongoTestcontainersShardedStoreContractTest extends RealMongoStoreContract {
    @Override
    RealMongo server() {
        return RealMongo.sharded();
    }
}
