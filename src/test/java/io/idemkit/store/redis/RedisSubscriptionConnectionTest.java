package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.it.harness.RedisCluster;
import io.idemkit.it.harness.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * The Pub/Sub subscription's connection on a client the application shares with the store: closed
 * when the subscription ends, never lent again by the pool. A connection that left subscribed mode
 * can still be owed a reply (an {@code UNSUBSCRIBE} that the store's close and the subscription's
 * confirmation both sent), and the next command on it read that reply as its own: a claim's token
 * of another claim, {@code "unsubscribe"} as a record's state.
 */
class RedisSubscriptionConnectionTest {

    @Test
    void onOneServer_theSubscriptionsConnection_isDestroyedWhenTheStoreCloses() throws Exception {
        RedisServer server = RedisServer.shared();
        try (RedisClient client = RedisClient.create(server.host(), server.port())) {
            subscribeAndClose(
                    client,
                    RedisStoreSettings.forUri(server.uri()),
                    () -> List.of(client.getPool()));
        }
    }

    @Test
    void onACluster_theSubscriptionsConnection_isDestroyedWhenTheStoreCloses() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        try (RedisClusterClient client =
                RedisClusterClient.builder().nodes(cluster.nodes()).build()) {
            subscribeAndClose(
                    client,
                    RedisStoreSettings.forUri(RedisServer.shared().uri()),
                    () -> new ArrayList<>(client.getClusterNodes().values()));
        }
    }

    private static void subscribeAndClose(
            UnifiedJedis client,
            RedisStoreSettings settings,
            Supplier<Collection<? extends Pool<Connection>>> pools)
            throws InterruptedException {
        RedisIdempotencyStore store =
                new RedisIdempotencyStore(
                        client,
                        settings.withKeyPrefix("s" + UUID.randomUUID().toString().substring(0, 8)),
                        Clock.systemUTC());
        store.awaitCompletion("nothing-here", Duration.ZERO); // the first wait subscribes
        await().atMost(Duration.ofSeconds(10)).until(store::listening);
        long destroyed = destroyed(pools.get());

        store.close();

        await().atMost(Duration.ofSeconds(10)).until(() -> destroyed(pools.get()) > destroyed);
        assertThat(store.listening()).isFalse();
        for (Pool<Connection> pool : pools.get()) {
            try (Connection lent = pool.getResource()) {
                assertThat(new Jedis(lent).echo("after")).isEqualTo("after");
            }
        }
    }

    private static long destroyed(Collection<? extends Pool<Connection>> pools) {
        return pools.stream().mapToLong(Pool::getDestroyedCount).sum();
    }
}
