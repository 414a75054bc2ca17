package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.message.OrdersBean;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference's queue vectors (C11, conformance file {@code queue_scenarios}) on message-driven
 * beans in a real Open Liberty with its embedded messaging engine, persistent messages on a real
 * queue, and real concurrent consumers. Each store's IT class starts a server of its own with the
 * messaging features, and extends this with what only that store can show.
 *
 * <p>Each IT class carries its own {@code @EnabledIfSystemProperty}: JUnit does not inherit a
 * condition from a superclass.
 *
 * <p>A message is acknowledged when it leaves the queue: the tests browse the queue for the
 * messages of their tag.
 */
abstract class MessageScenarios {

    /** What every message test application configures. */
    static final String COMMON_CONFIG =
            "idemkit.scope-mode=single-tenant\n"
                    + "idemkit.lease-ttl=8s\n"
                    + "idemkit.message.max-attempts=3\n";

    static HttpCalls http;

    String tag;

    @TempDir Path markers;

    @BeforeEach
    void newTag() {
        tag = UUID.randomUUID().toString();
    }

    /**
     * @param name the WAR's name, which is also the application's
     * @param config the application's {@code microprofile-config.properties}
     * @return the message test application, with the library
     */
    static WebArchive war(String name, String config) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(OrdersBean.class.getPackage())
                        .addAsResource(
                                new StringAsset(COMMON_CONFIG + config),
                                "META-INF/microprofile-config.properties"));
    }

    /**
     * The embedded messaging engine, loopback only, with the queues and the activation
     * specifications of the application {@code app} (Liberty names them {@code <app>/<bean>}). The
     * orders queue redelivers a message up to ten times before its exception destination, above
     * what {@code max-attempts=3} needs (three runs and the delivery that gives it up).
     */
    static String messaging(String app) {
        return """
                  <featureManager>
                    <feature>mdb-4.0</feature>
                    <feature>messagingServer-3.0</feature>
                    <feature>messagingClient-3.0</feature>
                  </featureManager>
                  <wasJmsEndpoint enabled="false"/>
                  <messagingEngine>
                    <queue id="OrdersQ" maxRedeliveryCount="10"/>
                    <queue id="QuotesQ"/>
                    <queue id="RepliesQ"/>
                  </messagingEngine>
                  <jmsConnectionFactory id="cf" jndiName="jms/cf"><properties.wasJms/></jmsConnectionFactory>
                  <jmsQueue id="ordersQ" jndiName="jms/ordersQ"><properties.wasJms queueName="OrdersQ"/></jmsQueue>
                  <jmsQueue id="quotesQ" jndiName="jms/quotesQ"><properties.wasJms queueName="QuotesQ"/></jmsQueue>
                  <jmsQueue id="repliesQ" jndiName="jms/repliesQ"><properties.wasJms queueName="RepliesQ"/></jmsQueue>
                  <jmsActivationSpec id="APP/OrdersBean">
                    <properties.wasJms destinationRef="ordersQ" maxConcurrency="8"/>
                  </jmsActivationSpec>
                  <jmsActivationSpec id="APP/QuotesBean">
                    <properties.wasJms destinationRef="quotesQ"/>
                  </jmsActivationSpec>
                """
                .replace("APP", app);
    }

    /** Starts the server, and waits until its application answers. */
    static void start(LibertyServer server, URI app) throws IOException, InterruptedException {
        server.start(app.resolve("api/messages/runs/probe"));
        http = new HttpCalls(app);
    }

    void send(String mode, String key, int times) {
        String query = "api/messages?tag=" + tag + "&mode=" + mode + "&times=" + times;
        if (key != null) {
            query += "&key=" + key;
        }
        if (mode.equals("block") || mode.equals("rollback-once")) {
            query += "&marker=" + markers.resolve(tag).toAbsolutePath();
        }
        assertThat(http.postJson(query, "").status()).isEqualTo(200);
    }

    int count(String what) {
        return Integer.parseInt(http.get("api/messages/" + what + "/" + tag).text());
    }

    /** A count of the whole application, not of this test's tag ({@code DeliveryEvents}). */
    int countAll(String what) {
        return Integer.parseInt(http.get("api/messages/" + what + "/all").text());
    }

    int pending() {
        return Integer.parseInt(http.get("api/messages/pending/" + tag).text());
    }

    /**
     * Waits until {@code done} runs have completed, then until no message of this test's tag is
     * left on the queue, and a second more: a message being delivered is locked, and the queue's
     * browser does not show it, so an empty queue alone does not prove that every delivery was
     * acknowledged.
     */
    void awaitAllAcknowledged(int done) throws InterruptedException {
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> count("done") >= done && pending() == 0);
        Thread.sleep(1_000);
        assertThat(pending()).isZero();
    }

    @Test
    void queue_at_least_once_dedup() throws Exception {
        send("ok", "Q1-" + tag, 5);

        awaitAllAcknowledged(1);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(count("done")).isEqualTo(1);
    }

    @Test
    void queue_concurrent_redelivery() throws Exception {
        int replayedBefore = countAll("replayed");
        int waitedBefore = countAll("waited");
        // Eight messages of one key at once, to eight consumers; the first runs for half a second.
        send("slow", "Q2-" + tag, 8);

        // Settled when each of the seven duplicates has been replayed (acknowledged unrun).
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> countAll("replayed") - replayedBefore >= 7);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(countAll("replayed") - replayedBefore).isEqualTo(7);
        assertThat(countAll("waited") - waitedBefore)
                .as("duplicates that arrived while the first delivery ran, and waited for it")
                .isPositive();
    }

    @Test
    void queue_poison_dlq() throws Exception {
        send("fail", "Q5-" + tag, 1);

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> count("exhausted") == 1);
        awaitAllAcknowledged(0);
        assertThat(count("runs")).isEqualTo(3);
        assertThat(count("exhausted-attempts-3")).isEqualTo(1);
        // The three runs may have been on three bean instances: the surface is the application's.
        assertThat(count("exhausted-with-last-failure")).isEqualTo(1);
        // Acknowledged, so nothing more comes: no fourth run, no second event.
        assertThat(count("runs")).isEqualTo(3);
        assertThat(count("exhausted")).isEqualTo(1);
    }

    @Test
    void queue_result_bearing_replay() {
        String key = "Q6-" + tag;

        String first = http.postJson("api/messages/quote?key=" + key + "&item=tea", "").text();
        String second = http.postJson("api/messages/quote?key=" + key + "&item=tea", "").text();

        assertThat(first).startsWith("tea costs ");
        assertThat(second).isEqualTo(first);
        assertThat(Integer.parseInt(http.get("api/messages/quotes/" + key).text())).isEqualTo(1);
    }

    @Test
    void messagesWithoutTheKeyProperty_areKeyedByTheirMessageIds() throws Exception {
        send("ok", null, 2);

        awaitAllAcknowledged(2);
        // Two sends are two JMSMessageIDs: two operations.
        assertThat(count("runs")).isEqualTo(2);
    }

    @Test
    void aRolledBackDelivery_releasesTheKey_andItsRedeliveryRunsOnce() throws Exception {
        send("rollback-once", "R-" + tag, 1);

        awaitAllAcknowledged(1);
        assertThat(count("runs")).isEqualTo(2);
        assertThat(count("done")).isEqualTo(1);
        assertThat(count("exhausted")).isZero();
    }
}
