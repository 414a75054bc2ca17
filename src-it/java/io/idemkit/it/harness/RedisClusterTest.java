package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * {@link RedisCluster} of three real masters: healthy, a key lands on {@link RedisCluster#nodeFor},
 * a stopped master fails only its own keys, and it comes back.
 */
class RedisClusterTest {

    @Test
    void threeMasters_serveEveryKeyOnItsMaster_andOneStoppedMasterFailsOnlyItsKeys_untilItIsBack() {
        try (RedisCluster cluster = RedisCluster.start(3, node -> node.appendOnly(true))) {
            for (RedisServer master : cluster.masters()) {
                try (Jedis jedis = master.connect()) {
                    assertThat(jedis.clusterInfo())
                            .contains("cluster_state:ok")
                            .contains("cluster_known_nodes:3");
                }
            }
            assertThat(cluster.seeds().split(","))
                    .hasSize(3)
                    .allMatch(s -> s.startsWith("127.0.0.1:"));

            String key = UUID.randomUUID().toString();
            RedisServer owner = cluster.nodeFor(key);
            String other = otherKey(cluster, owner);
            try (RedisClusterClient client =
                    RedisClusterClient.builder()
                            .nodes(cluster.nodes())
                            // a refused command fails in 0.5 s, not after the default retries
                            .maxAttempts(2)
                            .maxTotalRetriesDuration(Duration.ofMillis(500))
                            .build()) {
                client.set(key, "here");
                client.set(other, "there");
                try (Jedis jedis = owner.connect()) {
                    assertThat(jedis.get(key)).isEqualTo("here");
                }

                owner.stop();

                assertThatThrownBy(() -> client.get(key)).isInstanceOf(JedisException.class);
                assertThat(client.get(other)).isEqualTo("there");

                owner.start();
                cluster.awaitHealthy();

                assertThat(client.get(key)).as("kept by its AOF").isEqualTo("here");
                client.set(key, "back");
                assertThat(client.get(key)).isEqualTo("back");
                assertThat(client.get(other)).isEqualTo("there");
            }
        }
    }

    /** A fresh key that another master than {@code owner} serves. */
    private static String otherKey(RedisCluster cluster, RedisServer owner) {
        while (true) {
            String key = UUID.randomUUID().toString();
            if (cluster.nodeFor(key) != owner) {
                return key;
            }
        }
    }
}
