/**
 * The Redis store (contract C16): {@link io.idemkit.store.redis.RedisIdempotencyStore} and its
 * {@link io.idemkit.store.redis.RedisStoreSettings}, on Jedis, for one Redis server or a Redis
 * Cluster (Redis 6.2 and later, or Valkey).
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.store.redis;
