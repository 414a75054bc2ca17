package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.connection.ServerDescription;
import com.mongodb.connection.ServerType;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The watch for a new primary follows a replica set's primary or a standalone server, and never
 * fires on a sharded cluster, whose routers the driver counts as "primary" but whose {@code $$NOW}
 * belongs to whichever router a command reaches (C9).
 */
class PrimaryWatchTest {

    private final AtomicInteger fired = new AtomicInteger();
    private final PrimaryWatch watch = new PrimaryWatch(fired::incrementAndGet);

    @Test
    void replicaSetPrimaryMovingToAnotherMember_fires() {
        watch.observe(
                cluster(ClusterType.REPLICA_SET, server("a", ServerType.REPLICA_SET_PRIMARY)));
        watch.observe(
                cluster(
                        ClusterType.REPLICA_SET,
                        server("a", ServerType.REPLICA_SET_SECONDARY),
                        server("b", ServerType.REPLICA_SET_PRIMARY)));

        assertThat(fired).hasValue(1);
    }

    @Test
    void routersListedInAnotherOrder_neverFireOnAShardedCluster() {
        ServerDescription one = server("mongos1", ServerType.SHARD_ROUTER);
        ServerDescription two = server("mongos2", ServerType.SHARD_ROUTER);
        assertThat(one.isPrimary()).as("what the driver says of a router").isTrue();

        watch.observe(cluster(ClusterType.SHARDED, one, two));
        watch.observe(cluster(ClusterType.SHARDED, two, one));
        watch.observe(cluster(ClusterType.SHARDED, two));
        watch.observe(cluster(ClusterType.SHARDED, one));

        assertThat(fired).hasValue(0);
    }

    @Test
    void aRouterSeenWhereTheTypeIsNotYetKnown_countsAsNoPrimary() {
        watch.observe(cluster(ClusterType.UNKNOWN, server("mongos1", ServerType.SHARD_ROUTER)));
        watch.observe(cluster(ClusterType.UNKNOWN, server("mongos2", ServerType.SHARD_ROUTER)));

        assertThat(fired).hasValue(0);
    }

    private static ClusterDescription cluster(ClusterType type, ServerDescription... servers) {
        return new ClusterDescription(ClusterConnectionMode.MULTIPLE, type, List.of(servers));
    }

    private static ServerDescription server(String host, ServerType type) {
        return ServerDescription.builder()
                .address(new ServerAddress(host, 27017))
                .state(ServerConnectionState.CONNECTED)
                .ok(true)
                .type(type)
                .build();
    }
}
