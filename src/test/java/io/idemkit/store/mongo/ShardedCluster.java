package io.idemkit.store.mongo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * A sharded MongoDB 8.0 cluster built from plain containers on one Docker network: a config server
 * replica set ({@code cfg}), one shard that is a replica set ({@code shard1}, test commands
 * enabled), and two {@code mongos} routers, the only members the tests reach. A client given both
 * routers spreads its commands over them, as an application's does, so that a lease stamped through
 * one router is judged through the other. The containers share the host's clock: clock skew between
 * routers cannot be shown here, only the routing. Started once for the test JVM, only where Docker
 * is there.
 */
final class ShardedCluster {

    private static final DockerImageName IMAGE = DockerImageName.parse("mongo:8.0");
    private static final int PORT = 27017;
    private static final String WAITING = "(?i).*waiting for connections.*";

    private ShardedCluster() {}

    /**
     * Starts the cluster.
     *
     * @return a connection string naming both routers
     */
    static String start() {
        Network network = Network.newNetwork();
        GenericContainer<?> config = mongod(network, "cfg", "--configsvr", "--replSet", "cfg");
        GenericContainer<?> shard =
                mongod(
                        network,
                        "shard1",
                        "--shardsvr",
                        "--replSet",
                        "shard1",
                        "--setParameter",
                        "enableTestCommands=1");
        config.start();
        shard.start();
        initiate(config, "{_id: 'cfg', configsvr: true, members: [{_id: 0, host: 'cfg:27017'}]}");
        initiate(shard, "{_id: 'shard1', members: [{_id: 0, host: 'shard1:27017'}]}");
        GenericContainer<?> first = mongos(network, "mongos1");
        GenericContainer<?> second = mongos(network, "mongos2");
        first.start();
        second.start();
        eval(first, "sh.addShard('shard1/shard1:27017')");
        eval(first, "sh.enableSharding('" + MongoServerUnderTest.DATABASE + "')");
        return "mongodb://"
                + first.getHost()
                + ":"
                + first.getMappedPort(PORT)
                + ","
                + second.getHost()
                + ":"
                + second.getMappedPort(PORT)
                + "/";
    }

    private static GenericContainer<?> mongod(Network network, String alias, String... role) {
        List<String> command = new ArrayList<>(List.of("--bind_ip_all", "--port", "" + PORT));
        command.addAll(List.of(role));
        return new GenericContainer<>(IMAGE)
                .withNetwork(network)
                .withNetworkAliases(alias)
                // The image's entrypoint runs mongod when the command starts with an option.
                .withCommand(command.toArray(String[]::new))
                .waitingFor(Wait.forLogMessage(WAITING, 1));
    }

    private static GenericContainer<?> mongos(Network network, String alias) {
        return new GenericContainer<>(IMAGE)
                .withNetwork(network)
                .withNetworkAliases(alias)
                .withExposedPorts(PORT)
                .withCommand(
                        "mongos",
                        "--configdb",
                        "cfg/cfg:27017",
                        "--bind_ip_all",
                        "--port",
                        "" + PORT)
                .waitingFor(Wait.forLogMessage(WAITING, 1));
    }

    /** Initiates a one-member replica set and waits until it has a primary. */
    private static void initiate(GenericContainer<?> member, String config) {
        eval(member, "rs.initiate(" + config + ")");
        eval(
                member,
                "for (let i = 0; !db.hello().isWritablePrimary; i++) {"
                        + " if (i > 600) { quit(1); } sleep(100); }");
    }

    private static void eval(GenericContainer<?> container, String script) {
        Container.ExecResult result;
        try {
            result = container.execInContainer("mongosh", "--quiet", "--eval", script);
        } catch (IOException e) {
            throw new IllegalStateException("could not run mongosh in " + container, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting up the cluster", e);
        }
        if (result.getExitCode() != 0) {
            throw new IllegalStateException(
                    "mongosh --eval \""
                            + script
                            + "\" failed: "
                            + result.getStdout()
                            + result.getStderr());
        }
    }
}
