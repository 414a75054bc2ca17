package io.idemkit.store.redis;

import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;
import redis.clients.jedis.util.Pool;

/**
 * What the Redis store's wing does with Jedis, apart from the store itself: makes the client the
 * settings describe, and looks at the servers' eviction policy at deployment. Reached only when
 * Jedis is on the class path. Stateless.
 */
final class RedisStoreOpening {

    private RedisStoreOpening() {}

    /**
     * @param settings checked settings naming a server or a cluster
     * @return a store on a client of its own, made at its first use (a cluster client connects as
     *     it is made, to learn the cluster's slots)
     */
    static RedisIdempotencyStore open(RedisStoreSettings settings) {
        return new RedisIdempotencyStore(() -> client(settings), settings, Clock.systemUTC());
    }

    /**
     * @param settings checked settings naming a server or a cluster
     * @return a client on them, pooled, every command bounded by the timeout; nothing is connected
     *     yet
     */
    static UnifiedJedis client(RedisStoreSettings settings) {
        int millis = (int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis());
        DefaultJedisClientConfig.Builder config =
                DefaultJedisClientConfig.builder()
                        .connectionTimeoutMillis(millis)
                        .socketTimeoutMillis(millis)
                        .clientName("idemkit")
                        .ssl(settings.tls());
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        pool.setMaxWait(settings.timeout());
        // No MBean per pool: an application server would keep them after an undeploy.
        pool.setJmxEnabled(false);
        if (settings.cluster()) {
            credentials(config, settings.user(), settings.password());
            Set<HostAndPort> nodes = new LinkedHashSet<>();
            settings.nodes().forEach(node -> nodes.add(HostAndPort.from(node)));
            return RedisClusterClient.builder()
                    .nodes(nodes)
                    .clientConfig(config.build())
                    .poolConfig(pool)
                    .maxAttempts(3)
                    .maxTotalRetriesDuration(settings.timeout())
                    .build();
        }
        URI uri = URI.create(settings.uri());
        credentials(
                config,
                settings.user() != null ? settings.user() : JedisURIHelper.getUser(uri),
                settings.password() != null
                        ? settings.password()
                        : JedisURIHelper.getPassword(uri));
        if (JedisURIHelper.isRedisSSLScheme(uri)) {
            config.ssl(true);
        }
        if (JedisURIHelper.hasDbIndex(uri)) {
            config.database(JedisURIHelper.getDBIndex(uri));
        }
        return RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(config.build())
                .poolConfig(pool)
                .build();
    }

    private static void credentials(
            DefaultJedisClientConfig.Builder config, String user, String password) {
        if (user != null) {
            config.user(user);
        }
        if (password != null) {
            config.password(password);
        }
    }

    /**
     * Asks every server the client knows ({@code CONFIG GET}) whether it may evict keys: {@code
     * maxmemory} set with a {@code maxmemory-policy} other than {@code noeviction}. A {@code
     * volatile-*} policy is as bad as an {@code allkeys-*} one, since every record has a TTL.
     *
     * @param client the store's client
     * @return the servers that may evict, with their settings; or, when a server cannot be asked
     *     (unreachable, {@code CONFIG} disabled as managed services do), why not
     */
    static EvictionFindings evictionFindings(UnifiedJedis client) {
        List<String> evicting = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, Pool<Connection>> server : servers(client)) {
            try (Connection connection = server.getValue().getResource()) {
                // One parameter a CONFIG GET: several are Redis 7's.
                Jedis jedis = new Jedis(connection);
                String max = jedis.configGet("maxmemory").getOrDefault("maxmemory", "0");
                String policy =
                        jedis.configGet("maxmemory-policy")
                                .getOrDefault("maxmemory-policy", "noeviction");
                if (!"0".equals(max) && !"noeviction".equals(policy)) {
                    evicting.add(
                            server.getKey()
                                    + " (maxmemory "
                                    + max
                                    + ", maxmemory-policy "
                                    + policy
                                    + ")");
                }
            } catch (RuntimeException e) {
                unknown.add(server.getKey() + ": " + e.getMessage());
            }
        }
        return new EvictionFindings(evicting, unknown);
    }

    /** What {@link #evictionFindings} found. */
    record EvictionFindings(List<String> evicting, List<String> unknown) {}

    private static List<Map.Entry<String, Pool<Connection>>> servers(UnifiedJedis client) {
        if (client instanceof RedisClusterClient cluster) {
            List<Map.Entry<String, Pool<Connection>>> servers = new ArrayList<>();
            for (Map.Entry<String, ConnectionPool> node : cluster.getClusterNodes().entrySet()) {
                servers.add(Map.entry(node.getKey(), node.getValue()));
            }
            return servers;
        }
        RedisClient one = (RedisClient) client;
        return List.of(Map.entry("the server", one.getPool()));
    }
}
