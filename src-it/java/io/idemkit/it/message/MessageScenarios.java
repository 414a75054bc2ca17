package io.idemkit.it.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.message.app.OrdersBean;
import io.idemkit.it.transaction.slowcommit.SlowCommit;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference's six queue vectors (C11, conformance file {@code queue_scenarios}), each test
 * named after its {@code id}, on message-driven beans in a real server with its embedded broker,
 * persistent messages on a real queue, and real concurrent consumers: Open Liberty's messaging
 * engine ({@code Message*StoreIT}) or WildFly's ActiveMQ Artemis ({@code MessageArtemis*IT}). Each
 * store's IT class starts a server of its own with the broker, the application and, beside it,
 * {@link #badLeaseWar}; it extends this with what only that store or broker can show. {@code
 * queue-crash-recovery} needs a store outside the server ({@link #storeOfAnotherProcess}).
 *
 * <p>Each IT class carries its own {@code @OnRuntimes}: it is not inherited from a superclass.
 *
 * <p>A message is acknowledged when it leaves the queue: the tests browse the queue for the
 * messages of their tag.
 */
public abstract class MessageScenarios {

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
    public static WebArchive war(String name, String config) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(OrdersBean.class.getPackage())
                        .addClass(SlowCommit.class)
                        .addAsResource(
                                new StringAsset(COMMON_CONFIG + config),
                                "META-INF/microprofile-config.properties"));
    }

    /** The application that {@link #badLeaseWar} builds, which the server refuses. */
    static final String BAD_LEASE_APP = "message-bad-lease";

    /**
     * @param storeConfig the store's settings, as the class's application has them
     * @return the message test application on that store with a lease (8 s) that is not shorter
     *     than its transaction timeout (8 s), which the deployment must refuse (C11.4): the
     *     reference's queue-lease-shorter-than-visibility
     */
    static WebArchive badLeaseWar(String storeConfig) {
        return war(
                BAD_LEASE_APP,
                storeConfig
                        + "idemkit.message.transaction-timeout=8s\n"
                        + "idemkit.wait-timeout=2s\n");
    }

    /**
     * @return the server of this class, running the message application and {@link #badLeaseWar}
     */
    abstract OwnServer server();

    /**
     * Waits until the server of this class has refused to deploy {@code app}.
     *
     * @param app the name of an application of the server
     * @return what the server says of the refusal, the reason included
     */
    abstract String refusal(String app) throws Exception;

    /**
     * @return the message application's root on {@link #server()}
     */
    abstract URI application();

    /**
     * A store that reaches the application's records from this test's JVM, as a consumer in another
     * process would. A store that lives in the server's process (the in-memory one) has none, since
     * nothing of it outlives a crash: there {@code queue-crash-recovery} is skipped, and reported
     * so.
     *
     * @return a new store on the records of the application's store; the caller closes it
     */
    IdempotencyStore storeOfAnotherProcess() {
        return Assumptions.abort(
                "the in-memory store dies with the server: no claim outlives a consumer's crash");
    }

    /**
     * The embedded messaging engine, loopback only, with the queues and the activation
     * specifications of the application {@code app} (Liberty names them {@code <app>/<bean>}). The
     * orders queue redelivers a message up to ten times before its exception destination, above
     * what {@code max-attempts=3} needs (three runs and the delivery that gives it up).
     */
    public static String messaging(String app) {
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

    /** A path of the message application that answers 200 once it runs. */
    static final String PROBE = "api/messages/runs/probe";

    /**
     * Starts the server for the first time, and waits until its application answers.
     *
     * @return the application's root, where the server runs it
     */
    static URI start(OwnServer server, WebArchive war) throws IOException, InterruptedException {
        server.start(server.application(war).resolve(PROBE));
        URI app = server.application(war);
        http = new HttpCalls(app);
        return app;
    }

    /** Starts the server again after a stop or a kill, and waits until its application answers. */
    static void restart(OwnServer server, URI app) throws IOException, InterruptedException {
        server.start(app.resolve(PROBE));
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
    void queue_crash_recovery() throws Exception {
        try (IdempotencyStore store = storeOfAnotherProcess()) {
            String key = "Q3-" + tag;
            String effectiveKey =
                    EffectiveKey.forMethod(
                            key,
                            ScopeResolver.SINGLE_TENANT_SCOPE,
                            "io.idemkit.it.message.app.OrdersBean",
                            "onMessage(jakarta.jms.Message)void");
            send("block", key, 1);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("blocked") == 1);
            IdempotencyRecord claimed = store.find(effectiveKey).orElseThrow();
            assertThat(claimed.state()).isEqualTo(RecordState.CLAIMED);
            ClaimToken deadToken = claimed.token();

            server().kill();
            restart(server(), application());

            // The persistent message comes back after the restart; the dead claim's lease (8 s)
            // runs out; then one run, on this server, and the acknowledgement.
            awaitAllAcknowledged(1);
            assertThat(count("runs")).isEqualTo(1);
            assertThat(count("done")).isEqualTo(1);
            IdempotencyRecord completed = store.find(effectiveKey).orElseThrow();
            assertThat(completed.state()).isEqualTo(RecordState.COMPLETED);
            assertThat(completed.token()).isNotEqualTo(deadToken);
            // The dead consumer's late completion is fenced out (C2).
            boolean zombie =
                    store.complete(
                            effectiveKey,
                            deadToken,
                            new StoredResult(
                                    200, List.of(), "zombie".getBytes(StandardCharsets.UTF_8)),
                            Duration.ofHours(1));
            assertThat(zombie).isFalse();
            assertThat(store.find(effectiveKey).orElseThrow().token()).isEqualTo(completed.token());
            afterCrashRecovery();
        }
    }

    /**
     * What a class's broker shows of the message that {@code queue-crash-recovery} redelivered
     * after the crash, checked at its end: nothing by default.
     */
    void afterCrashRecovery() throws Exception {}

    @Test
    void queue_lease_shorter_than_visibility() throws Exception {
        // The lease (8s) is not shorter than the transaction timeout (8s): that application is
        // refused at deployment, and the other one of the server runs on.
        assertThat(refusal(BAD_LEASE_APP))
                .containsPattern(
                        "The lease of io.idemkit.it.message.app.OrdersBean.onMessage\\(\\)"
                                + " .*\\(8s\\) must be shorter than the transaction timeout"
                                + " \\(idemkit.message.transaction-timeout=8s\\)");
        URI badApp =
                server().application(ShrinkWrap.create(WebArchive.class, BAD_LEASE_APP + ".war"));
        assertThat(new HttpCalls(badApp).get("api/messages/runs/x").status()).isEqualTo(404);
        assertThat(http.get("api/messages/runs/x").status()).isEqualTo(200);
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
