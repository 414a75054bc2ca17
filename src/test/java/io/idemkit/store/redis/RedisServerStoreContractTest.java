package io.idemkit.store.redis;

import io.idemkit.it.harness.RedisServer;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/** The store contract suite on one real Redis server (6.2), started by the test on loopback. */
class RedisServerStoreContractTest extends RedisStoreContract {

    private static final UnifiedJedis CLIENT = Servers.sharedClient();

    @Override
    protected UnifiedJedis client() {
        return CLIENT;
    }

    /** The clients of the shared servers, one per JVM, made on first use. */
    static final class Servers {
        private static UnifiedJedis server;

        private Servers() {}

        static synchronized UnifiedJedis sharedClient() {
            if (server == null) {
                RedisServer shared = RedisServer.shared();
                server = RedisClient.create(shared.host(), shared.port());
            }
            return server;
        }
    }
}
