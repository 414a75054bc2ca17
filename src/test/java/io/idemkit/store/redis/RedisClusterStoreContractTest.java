package io.idemkit.store.redis;

import io.idemkit.it.harness.RedisCluster;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * The store contract suite on a real Redis Cluster of three masters, assembled by the test from the
 * same binary: every test's keys spread over the three, each record on its own key's master.
 */
class RedisClusterStoreContractTest extends RedisStoreContract {

    private static final UnifiedJedis CLIENT =
            RedisClusterClient.builder().nodes(RedisCluster.shared().nodes()).build();

    @Override
    protected UnifiedJedis client() {
        return CLIENT;
    }
}
