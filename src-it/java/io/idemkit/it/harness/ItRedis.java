package io.idemkit.it.harness;

import io.idemkit.store.redis.RedisIdempotencyStore;
import io.idemkit.store.redis.RedisStoreSettings;
import java.time.Clock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * The Redis the Redis store's ITs share: {@link RedisServer#shared()}, one real {@code
 * redis-server} process per IT JVM, outside every application server, so that it outlives a killed
 * one. The applications reach it with {@link #storeConfig()}'s settings; the tests reach the
 * records as another process would, through a store of their own ({@link #storeOfAnotherProcess()})
 * or raw commands ({@link #connect()}). The tests keep apart by their keys, each test's own.
 */
public final class ItRedis {

    /** What the store's keys start with: the default of {@code idemkit.redis.key-prefix}. */
    public static final String KEY_PREFIX = "idemkit:";

    private static RedisClient client;

    private ItRedis() {}

    /**
     * @return an application's settings of the Redis store on the shared server: chosen by {@code
     *     idemkit.redis.uri} alone, with {@code idemkit.redis.timeout=2s}, so that a lease of 4 s
     *     or more is allowed (the default 5 s would ask 10 s), and the rest at their defaults
     */
    public static String storeConfig() {
        return "idemkit.redis.uri=" + RedisServer.shared().uri() + "\nidemkit.redis.timeout=2s\n";
    }

    /**
     * @param effectiveKey a record's effective key
     * @return the Redis key of its record
     */
    public static String recordKey(String effectiveKey) {
        return KEY_PREFIX + effectiveKey;
    }

    /**
     * @return a new plain connection to the shared server; the caller closes it
     */
    public static Jedis connect() {
        return RedisServer.shared().connect();
    }

    /**
     * @return the shared server's clock now, in ms since the epoch ({@code TIME}): the clock every
     *     lease of the store is judged by
     */
    public static long serverMillis() {
        try (Jedis jedis = connect()) {
            java.util.List<String> time = jedis.time();
            return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        }
    }

    /**
     * @return a store on the applications' records, in this JVM, as another process would have one;
     *     its client is this JVM's one, which closing the store leaves open
     */
    public static RedisIdempotencyStore storeOfAnotherProcess() {
        RedisServer server = RedisServer.shared();
        return new RedisIdempotencyStore(
                client(), RedisStoreSettings.forUri(server.uri()), Clock.systemUTC());
    }

    private static synchronized RedisClient client() {
        if (client == null) {
            RedisServer server = RedisServer.shared();
            client = RedisClient.create(server.host(), server.port());
        }
        return client;
    }
}
