package io.idemkit.it.cluster;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.message.MessageScenarios;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One queue consumed by two nodes (C11.1, C11.2, C4.1, C4.3, C12): two Open Liberty servers run the
 * message test application on the JDBC store, whose data sources reach one real PostgreSQL. Node 0
 * runs the embedded messaging engine, with the queues, and consumes locally; its JMS endpoint
 * listens on loopback only. Node 1 has no engine: its connection factory and activation
 * specifications reach node 0's engine over TCP ({@code remoteServerAddress}), so its {@code
 * OrdersBean} is a second set of consumers of the very same queue.
 *
 * <p>What it proves: twenty keys, each sent three times (a producer's re-sends, each a new {@code
 * JMSMessageID}, sent in three rounds so that some come while their key runs), with a bean that
 * runs for half a second, are delivered to both nodes; each key runs exactly once over both nodes'
 * ledgers, both nodes run some of the keys (a node that ran none fails the test), each of the forty
 * duplicates is replayed once (acknowledged unrun, whichever node ran its key), nothing is given
 * up, and no message of the test is left on the queue. The split of runs and replays between the
 * nodes is printed.
 *
 * <p>Every server is on loopback and on ports of its own, the engine's included; the test stops
 * them all, the client node first, even when it fails.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "two Open Liberty servers of the test's own, one the other's remote messaging"
                        + " engine")
class TwoNodesMessagesIT {

    private static final String APP = "two-nodes-messages";
    private static final int KEYS = 20;
    private static final int COPIES = 3;
    private static EmbeddedPostgres postgres;
    private static final LibertyServer[] NODES = new LibertyServer[2];
    private static final HttpCalls[] HTTP = new HttpCalls[2];

    @BeforeAll
    static void start() throws Exception {
        postgres = ItPostgres.start();
        String engine = "127.0.0.1:" + TestPorts.next() + ":BootstrapBasicMessaging";
        // The message ITs' 8 s lease: node 1's commits through the remote engine can take longer
        // on a loaded machine, and the heartbeat renews the lease until the completion after the
        // commit is written (C4.7, C11.2).
        WebArchive war = MessageScenarios.war(APP, ItPostgres.STORE_CONFIG);
        String common =
                ItPostgres.libertyDataSources(postgres)
                        + ItPostgres.libertyApplicationSeeingTheDriver(APP);
        // The engine's node, and the client node that needs it running to activate its beans.
        NODES[0] =
                new LibertyServer(
                        "idemkit-qnode-0",
                        war,
                        common + MessageScenarios.messaging(APP) + endpoint(engine));
        start(0, war);
        NODES[1] = new LibertyServer("idemkit-qnode-1", war, common + client(engine));
        start(1, war);
    }

    /**
     * Starts the node, and waits until its application answers and its {@code OrdersBean} is
     * connected to the engine: on the client node that comes after the application has started.
     */
    private static void start(int node, WebArchive war) throws Exception {
        NODES[node].start(NODES[node].application(war).resolve("api/messages/runs/probe"));
        HTTP[node] = new HttpCalls(NODES[node].application(war));
        String connected = "CWSIV0556I: .* " + APP + "/OrdersBean will now be able to receive";
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .alias("node " + node + "'s OrdersBean connected")
                .until(() -> Pattern.compile(connected).matcher(NODES[node].messagesLog()).find());
    }

    /**
     * The engine's JMS endpoint, on loopback and {@code engine}'s port, with no SSL port: later in
     * the same file than {@link MessageScenarios#messaging}'s {@code enabled="false"}, so it wins
     * (a singleton element's attributes are merged, the last one winning).
     */
    private static String endpoint(String engine) {
        return "<wasJmsEndpoint enabled=\"true\" host=\"127.0.0.1\" wasJmsPort=\""
                + engine.split(":")[1]
                + "\" wasJmsSSLPort=\"-1\"/>\n";
    }

    /**
     * A node without an engine: the same JNDI names as {@link MessageScenarios#messaging}, whose
     * connection factory and activation specifications reach the engine at {@code engine}.
     */
    private static String client(String engine) {
        return """
                  <featureManager>
                    <feature>mdb-4.0</feature>
                    <feature>messagingClient-3.0</feature>
                  </featureManager>
                  <jmsConnectionFactory id="cf" jndiName="jms/cf">
                    <properties.wasJms remoteServerAddress="ENGINE"/>
                  </jmsConnectionFactory>
                  <jmsQueue id="ordersQ" jndiName="jms/ordersQ"><properties.wasJms queueName="OrdersQ"/></jmsQueue>
                  <jmsQueue id="quotesQ" jndiName="jms/quotesQ"><properties.wasJms queueName="QuotesQ"/></jmsQueue>
                  <jmsQueue id="repliesQ" jndiName="jms/repliesQ"><properties.wasJms queueName="RepliesQ"/></jmsQueue>
                  <jmsActivationSpec id="APP/OrdersBean">
                    <properties.wasJms destinationRef="ordersQ" maxConcurrency="8" remoteServerAddress="ENGINE"/>
                  </jmsActivationSpec>
                  <jmsActivationSpec id="APP/QuotesBean">
                    <properties.wasJms destinationRef="quotesQ" remoteServerAddress="ENGINE"/>
                  </jmsActivationSpec>
                """
                .replace("APP", APP)
                .replace("ENGINE", engine);
    }

    @AfterAll
    @SuppressWarnings("try") // the resources are only there to be closed
    static void stop() throws Exception {
        // Closed in reverse order, each even when another fails: the client node, the engine's
        // node, the database.
        try (AutoCloseable database = postgres;
                AutoCloseable engineNode = NODES[0];
                AutoCloseable clientNode = NODES[1]) {
            // nothing more
        }
    }

    @Test
    void threeCopiesOfTwentyKeys_onAQueueBothNodesConsume_runOncePerKey_allAcknowledged() {
        String run = UUID.randomUUID().toString();
        int replayedBefore = replayed();
        // Each key once, then each key again, and again: the re-sends of a producer that timed
        // out. The first copies come faster than the eight consumers of one node take them, so
        // both nodes run some; the re-sends arrive while those runs last, on either node.
        for (int copy = 0; copy < COPIES; copy++) {
            for (int k = 0; k < KEYS; k++) {
                String tag = run + "-" + k;
                String send = "api/messages?tag=" + tag + "&mode=slow&key=key-" + tag;
                assertThat(HTTP[0].postJson(send, "").status()).isEqualTo(200);
            }
        }

        // Every message ends in a run or a replay (acknowledged unrun), on either node. Settled
        // when each has had one, and no message of the test shows on the queue for two seconds:
        // a message being delivered is locked, and the queue's browser does not show it.
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .alias("every message run or replayed")
                    .until(() -> runs(run) + replayed() - replayedBefore >= KEYS * COPIES);
            Awaitility.await()
                    .alias("no message left on the queue")
                    .during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> pendingOnTheQueue(run) == 0);
        } finally {
            System.out.println(split(run));
        }

        int[] runsPerNode = new int[2];
        for (int k = 0; k < KEYS; k++) {
            String tag = run + "-" + k;
            int[] runs = {count(0, "runs", tag), count(1, "runs", tag)};
            assertThat(runs[0] + runs[1]).as("runs of key %d over both nodes", k).isEqualTo(1);
            assertThat(count(0, "exhausted", tag) + count(1, "exhausted", tag))
                    .as("key %d given up", k)
                    .isZero();
            runsPerNode[0] += runs[0];
            runsPerNode[1] += runs[1];
        }
        // A delivery rolled back after its replay would have been replayed again.
        assertThat(replayed() - replayedBefore)
                .as("replays, one per duplicate")
                .isEqualTo(KEYS * (COPIES - 1));
        assertThat(runsPerNode[0]).as("keys run on node 0, the engine's").isPositive();
        assertThat(runsPerNode[1]).as("keys run on node 1, the remote consumer").isPositive();
    }

    /** How the deliveries went, node by node, and the keys that did not run exactly once. */
    private static String split(String run) {
        StringBuilder report =
                new StringBuilder("TwoNodesMessagesIT: " + KEYS + " keys x " + COPIES + " copies");
        StringBuilder odd = new StringBuilder();
        int[] runsPerNode = new int[2];
        for (int k = 0; k < KEYS; k++) {
            int[] runs = {count(0, "runs", run + "-" + k), count(1, "runs", run + "-" + k)};
            runsPerNode[0] += runs[0];
            runsPerNode[1] += runs[1];
            if (runs[0] + runs[1] != 1) {
                odd.append(" key ")
                        .append(k)
                        .append(' ')
                        .append(runs[0])
                        .append('+')
                        .append(runs[1]);
            }
        }
        for (int node = 0; node < 2; node++) {
            report.append(node == 0 ? "; node 0 (engine) ran " : "; node 1 (remote client) ran ")
                    .append(runsPerNode[node])
                    .append(", replayed ")
                    .append(countAll(node, "replayed"))
                    .append(", waited ")
                    .append(countAll(node, "waited"))
                    .append(", store failures ")
                    .append(countAll(node, "store-failures"))
                    .append(", leases lost ")
                    .append(countAll(node, "decision-lease_lost"))
                    .append(", taken over ")
                    .append(countAll(node, "decision-lease_reclaimed"))
                    .append(", results discarded ")
                    .append(countAll(node, "decision-lease_reclaimed_loss"));
        }
        return report.append(
                        odd.length() == 0
                                ? "; every key ran once"
                                : "; keys not run once (node 0 + node 1):" + odd)
                .toString();
    }

    /** The runs of the test's keys, over both nodes. */
    private static int runs(String run) {
        int runs = 0;
        for (int k = 0; k < KEYS; k++) {
            runs += count(0, "runs", run + "-" + k) + count(1, "runs", run + "-" + k);
        }
        return runs;
    }

    /** The replays of both nodes' applications, from the library's events. */
    private static int replayed() {
        return countAll(0, "replayed") + countAll(1, "replayed");
    }

    private static int pendingOnTheQueue(String run) {
        int pending = 0;
        for (int k = 0; k < KEYS; k++) {
            pending += count(0, "pending", run + "-" + k);
        }
        return pending;
    }

    /**
     * A count of the node's whole application, from the library's events ({@code DeliveryEvents}).
     */
    private static int countAll(int node, String what) {
        return count(node, what, "all");
    }

    private static int count(int node, String what, String tag) {
        return Integer.parseInt(HTTP[node].get("api/messages/" + what + "/" + tag).text());
    }
}
