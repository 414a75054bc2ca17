package io.idemkit.it.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster of real {@link RedisServer}s on loopback: masters only, no replicas, the 16384
 * slots split evenly in order (the first master serves the lowest), built as {@code redis-cli
 * --cluster create} would (the jar has no {@code redis-cli}): config epochs, {@code CLUSTER
 * ADDSLOTS} in chunks (Redis 6.2 has no {@code ADDSLOTSRANGE}), {@code CLUSTER MEET}.
 *
 * <p>Its nodes run with {@code cluster-require-full-coverage no}, so that while one master is
 * stopped or killed the others go on serving their slots (only the missing master's keys fail), and
 * {@code cluster-node-timeout 2000}. Without replicas no failover ever moves a slot: a key's master
 * ({@link #nodeFor}) is fixed. Not thread safe; {@link #shared()} is.
 */
public final class RedisCluster implements AutoCloseable {

    /** The slots of a Redis Cluster, 0 to 16383. */
    private static final int SLOTS = 16_384;

    private static volatile RedisCluster shared;

    private final List<RedisServer> masters;

    private RedisCluster(List<RedisServer> masters) {
        this.masters = List.copyOf(masters);
    }

    /**
     * Starts a cluster and waits (10 s at most) until every node reports {@code cluster_state:ok},
     * knows every node and sees all 16384 slots assigned.
     *
     * @param masters how many masters, 1 or more
     * @return the started cluster
     */
    public static RedisCluster start(int masters) {
        return start(masters, node -> {});
    }

    /**
     * As {@link #start(int)}, with more options for every node.
     *
     * @param masters how many masters, 1 or more
     * @param options sets options of every node, e.g. {@code node -> node.appendOnly(true)} for
     *     masters that keep their keys through a {@link RedisServer#kill()}
     * @return the started cluster
     */
    public static RedisCluster start(int masters, Consumer<RedisServer.Builder> options) {
        if (masters < 1) {
            throw new IllegalArgumentException("masters must be 1 or more: " + masters);
        }
        List<RedisServer> started = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                RedisServer.Builder node =
                        RedisServer.builder()
                                .config("cluster-node-timeout", "2000")
                                .config("cluster-require-full-coverage", "no");
                options.accept(node);
                started.add(node.clusterEnabled().start());
            }
            RedisCluster cluster = new RedisCluster(started);
            for (int i = 0; i < masters; i++) {
                try (Jedis jedis = started.get(i).connect()) {
                    jedis.clusterSetConfigEpoch(i + 1L);
                    int[] slots = IntStream.range(cluster.first(i), cluster.first(i + 1)).toArray();
                    for (int from = 0; from < slots.length; from += 1_000) {
                        jedis.clusterAddSlots(
                                Arrays.copyOfRange(
                                        slots, from, Math.min(slots.length, from + 1_000)));
                    }
                }
            }
            try (Jedis first = started.get(0).connect()) {
                for (RedisServer other : started.subList(1, masters)) {
                    first.clusterMeet(other.host(), other.port());
                }
            }
            cluster.awaitHealthy();
            return cluster;
        } catch (RuntimeException e) {
            started.forEach(RedisServer::close);
            throw e;
        }
    }

    /**
     * @return the one 3-master cluster of this JVM, started at the first call, stopped by the
     *     shutdown hook; tests that share it use fresh random keys and never stop its nodes
     */
    public static RedisCluster shared() {
        RedisCluster cluster = shared;
        if (cluster == null) {
            synchronized (RedisCluster.class) {
                if (shared == null) {
                    shared = start(3);
                }
                cluster = shared;
            }
        }
        return cluster;
    }

    /**
     * @return the masters, in slot order: the first serves slot 0
     */
    public List<RedisServer> masters() {
        return masters;
    }

    /**
     * @return the masters' addresses, for a cluster client's seeds
     */
    public Set<HostAndPort> nodes() {
        return masters.stream()
                .map(RedisServer::hostAndPort)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * @return the masters' addresses, {@code 127.0.0.1:p1,127.0.0.1:p2,...}
     */
    public String seeds() {
        return masters.stream()
                .map(m -> m.host() + ":" + m.port())
                .collect(Collectors.joining(","));
    }

    /**
     * @param key a key (its hash tag, where it has one, decides)
     * @return the master that serves the key's slot
     */
    public RedisServer nodeFor(String key) {
        int slot = JedisClusterCRC16.getSlot(key);
        for (int i = masters.size() - 1; i >= 0; i--) {
            if (slot >= first(i)) {
                return masters.get(i);
            }
        }
        throw new IllegalStateException("no master for slot " + slot);
    }

    /**
     * Waits (10 s at most per node) until every node reports {@code cluster_state:ok}, knows every
     * node, sees all slots assigned and flags no node as failing: after a master was {@link
     * RedisServer#start() started} again (a restarted master refuses commands for about two seconds
     * before it serves its slots again).
     *
     * @throws IllegalStateException when a node does not get there in time, with its log's tail
     */
    public void awaitHealthy() {
        for (RedisServer node : masters) {
            node.await("report a healthy cluster", () -> healthy(node));
        }
    }

    /** Stops every master and deletes its folder. */
    @Override
    public void close() {
        masters.forEach(RedisServer::close);
    }

    @Override
    public String toString() {
        return "Redis Cluster " + seeds();
    }

    /**
     * @return the first slot of master {@code i}; {@code i == masters} gives 16384
     */
    private int first(int i) {
        return (int) ((long) SLOTS * i / masters.size());
    }

    private boolean healthy(RedisServer node) {
        try (Jedis jedis = node.connect()) {
            String info = jedis.clusterInfo();
            if (!info.contains("cluster_state:ok")
                    || !info.contains("cluster_slots_assigned:" + SLOTS)
                    || !info.contains("cluster_slots_ok:" + SLOTS)
                    || !info.contains("cluster_known_nodes:" + masters.size())) {
                return false;
            }
            // one line per node: <id> <ip:port@bus> <flags> ... <link-state> <slots>
            return jedis.clusterNodes()
                    .lines()
                    .allMatch(
                            line -> {
                                String[] fields = line.split(" ");
                                return !fields[2].contains("fail")
                                        && !fields[2].contains("handshake")
                                        && fields[7].equals("connected");
                            });
        }
    }
}
