package io.idemkit.it.cluster;

import io.idemkit.it.faults.app.FaultsResource;
import io.idemkit.it.harness.FaultProxy;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.http.HttpScenarioSupport;
import io.idemkit.it.kafka.KafkaScenarios;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The two Open Liberty servers of {@link TwoNodesIT}, which its own tests and its nested store
 * fault tests ({@link TwoNodesIT.Faults}) share: one real PostgreSQL, and two servers, each on its
 * own ports, running the same application on the JDBC store. Their data sources are Liberty's usual
 * set-up: the driver in a server {@code <library>} that their {@code <jdbcDriver>} references,
 * which the application cannot see.
 *
 * <p>Node 0 reaches PostgreSQL through a {@link FaultProxy}, both its data sources ({@code
 * jdbc/idemkit}, the store's, and {@code jdbc/business}, the JTA one): the proxy passes every byte
 * until a test injects a fault, and each test that injects one restores it. Node 1 reaches
 * PostgreSQL directly.
 *
 * <p>The application is the HTTP test application and the fault tests' ({@link FaultsResource}),
 * with the JDBC store's network bound at 2 s ({@code idemkit.jdbc.network-timeout}; the system
 * property {@code idemkit.it.faults.network-timeout} overrides it, {@code 0} to see the fault tests
 * fail without it) and completion inside the business transaction (C13) on {@code jdbc/business}.
 *
 * <p>Beside it, each server runs the HTTP test application on the Redis store ({@value
 * #REDIS_WAR}), both on one real Redis server: the same application, so that what is proven of two
 * nodes on one database is proven of two nodes on one Redis with the same tests and kills.
 */
final class TwoNodes {

    static final String WAR = "two-nodes";

    /** The application on the Redis store. */
    static final String REDIS_WAR = "two-nodes-redis";

    /**
     * The Redis store's settings beyond {@link ItRedis#storeConfig()}'s (whose 2 s bound on
     * commands lets the application's shortest leases, raised to 5 s here, meet the lease rule):
     * the poll of {@link #POLL_CONFIG}.
     */
    static final String REDIS_CONFIG =
            "idemkit.redis.poll-longest-pause=1m\n"
                    + "io.idemkit.it.http.app.ShortLeaseResource/outlived/Idempotent/leaseTtl=5s\n"
                    + "io.idemkit.it.http.app.ShortLeaseResource/shortLease/Idempotent/leaseTtl=5s\n";

    /**
     * The poll of a waiting duplicate pauses 10 ms, doubling up to a minute: its reads fall 10, 30,
     * 70, …, 2550, 5110, 10230 ms after it starts waiting, far apart once it has waited a while, so
     * that a waiter left to its poll is late by a margin the test can tell from a wake-up.
     */
    static final String POLL_CONFIG = "idemkit.jdbc.poll-longest-pause=1m\n";

    /** The network bound of the store's calls, and C13 on the JTA data source. */
    static final String FAULT_CONFIG =
            "idemkit.jdbc.network-timeout="
                    + System.getProperty("idemkit.it.faults.network-timeout", "2s")
                    + "\nidemkit.jdbc.transaction-datasource=jdbc/business\n";

    static EmbeddedPostgres postgres;
    static DataSource database;

    /** Between node 0's data sources and PostgreSQL. */
    static FaultProxy proxy;

    static final LibertyServer[] NODES = new LibertyServer[2];
    static final URI[] APPS = new URI[2];
    static final HttpCalls[] HTTP = new HttpCalls[2];

    /** The application on the Redis store, on each node. */
    static final HttpCalls[] REDIS_HTTP = new HttpCalls[2];

    /** The Kafka application ({@link TwoNodesKafka}), on each node. */
    static final String KAFKA_WAR = "two-nodes-kafka";

    static final HttpCalls[] KAFKA_HTTP = new HttpCalls[2];

    /** MicroProfile Reactive Messaging, for the Kafka application. */
    private static final String FEATURES =
            "  <featureManager>\n"
                    + "    <feature>mpReactiveMessaging-3.0</feature>\n"
                    + "  </featureManager>\n";

    private TwoNodes() {}

    /** Starts the database, the proxy and both servers; {@link #stop} ends whatever started. */
    static void start() throws Exception {
        postgres = ItPostgres.start();
        database = postgres.getPostgresDatabase();
        ItPostgres.execute(
                database,
                "CREATE TABLE fault_payments (id SERIAL PRIMARY KEY, pay_key TEXT NOT NULL,"
                        + " tag TEXT NOT NULL)");
        proxy = new FaultProxy("127.0.0.1", postgres.getPort());
        WebArchive redisWar =
                LibraryJar.addRedisClient(
                        HttpScenarioSupport.memoryWar(
                                REDIS_WAR, ItRedis.storeConfig() + REDIS_CONFIG));
        WebArchive war =
                WebXml.add(
                        HttpScenarioSupport.memoryWar(
                                        WAR, ItPostgres.STORE_CONFIG + POLL_CONFIG + FAULT_CONFIG)
                                .addPackage(FaultsResource.class.getPackage()),
                        "<resource-ref><res-ref-name>jdbc/business</res-ref-name>"
                                + "<res-type>javax.sql.DataSource</res-type>"
                                + "<lookup-name>jdbc/business</lookup-name></resource-ref>");
        WebArchive kafkaWar =
                KafkaScenarios.twoNodesWar(KAFKA_WAR, "liberty-kafka", ItPostgres.STORE_CONFIG);
        // Both servers start at once: about a third less wall time on two cores than one by one.
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            int port = n == 0 ? proxy.port() : postgres.getPort();
            LibertyServer node =
                    new LibertyServer("idemkit-node-" + n, war, dataSources(port) + FEATURES);
            node.addApplication(redisWar);
            node.addApplication(kafkaWar);
            NODES[n] = node;
            URI probe = node.application(war).resolve("api/calls/probe");
            starts.add(
                    CompletableFuture.runAsync(
                            () -> {
                                try {
                                    node.start(probe);
                                } catch (Exception e) {
                                    throw new CompletionException(e);
                                }
                            }));
        }
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        // Asked after the start: a server whose port was taken started on others (OwnServer).
        for (int n = 0; n < 2; n++) {
            APPS[n] = NODES[n].application(war);
            HTTP[n] = new HttpCalls(APPS[n]);
            REDIS_HTTP[n] = new HttpCalls(NODES[n].application(redisWar));
            KAFKA_HTTP[n] = new HttpCalls(NODES[n].application(kafkaWar));
            awaitRedisApplication(n);
        }
    }

    /** Waits until node {@code n}'s application on the Redis store answers. */
    static void awaitRedisApplication(int n) {
        Awaitility.await(REDIS_WAR + " on node " + n)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptions()
                .until(() -> REDIS_HTTP[n].get("api/calls/probe").status() == 200);
    }

    static void stop() throws Exception {
        for (LibertyServer node : NODES) {
            if (node != null) {
                node.close();
            }
        }
        if (proxy != null) {
            proxy.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /**
     * @param port where PostgreSQL answers: its own port, or a proxy's in front of it
     * @return the body of a {@code <server>} element: {@link ItPostgres#libertyDataSources}'s
     *     set-up, the driver in a {@code <library>}, with both data sources on {@code port}, and
     *     the driver's {@code loginTimeout} at 2 s: the store's network bound covers reads on an
     *     open connection only, and a new connection's handshake with a database that stopped
     *     answering waits for as long as the driver allows, by default forever
     */
    private static String dataSources(int port) {
        return ItPostgres.libertyDataSources(port, "loginTimeout=\"2\"");
    }
}
