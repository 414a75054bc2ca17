package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ArtemisBindings;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.WildFlyServer;
import java.net.URI;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue vectors with the in-memory store on WildFly's full profile, whose message-driven beans
 * take their messages from the embedded ActiveMQ Artemis broker (in-VM): {@code
 * queue-crash-recovery} has no claim that outlives the crash, and is skipped here. And what differs
 * from Open Liberty's engine (docs/message-surface.md): the lease rule reads WildFly's transaction
 * timeout (C11.4), and Artemis' own delivery limit, below a {@code max-attempts} that would need
 * more deliveries, moves a failing message to {@code DLQ} with no exhausted event (C11.3).
 */
@OnRuntimes(
        value = WILDFLY,
        because = "the broker of these tests is WildFly's embedded ActiveMQ Artemis")
class MessageArtemisMemoryStoreIT extends MessageScenarios {

    private static final String APP = "message-artemis-memory";
    private static final String STORE_CONFIG = "idemkit.store=memory\n";
    private static final String SERVER_TIMEOUT_APP = "message-artemis-server-timeout";
    private static final String LIMIT_APP = "message-artemis-limit";

    /** Artemis' {@code max-delivery-attempts} when its address-setting says none, as here. */
    private static final int ARTEMIS_DELIVERY_ATTEMPTS = 10;

    private static WildFlyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        WebArchive war = ArtemisBindings.on(war(APP, STORE_CONFIG), "");
        server = new WildFlyServer("idemkit-message-artemis-memory", war, WildFlyServer.FULL);
        server.addApplication(ArtemisBindings.on(badLeaseWar(STORE_CONFIG), ""));
        // A wait longer than WildFly's default transaction timeout, 300s.
        server.addApplication(
                ArtemisBindings.on(
                        war(SERVER_TIMEOUT_APP, STORE_CONFIG + "idemkit.wait-timeout=400s\n"), ""));
        // More attempts than Artemis delivers a message, on queues of its own.
        server.addApplication(
                ArtemisBindings.on(
                        war(
                                LIMIT_APP,
                                STORE_CONFIG
                                        + "idemkit.message.max-attempts="
                                        + (ARTEMIS_DELIVERY_ATTEMPTS + 10)
                                        + "\n"),
                        "Limit"));
        app = start(server, war);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    OwnServer server() {
        return server;
    }

    @Override
    String refusal(String app) throws Exception {
        return server.awaitRefusal(app);
    }

    @Override
    URI application() {
        return app;
    }

    @Test
    void theLeaseRule_readsWildFlysTransactionTimeout_whenNoneIsConfigured() throws Exception {
        // C11.4: the transactions subsystem's default-timeout, 300s, read from the server.
        assertThat(refusal(SERVER_TIMEOUT_APP))
                .contains(
                        "The wait timeout of io.idemkit.it.message.app.OrdersBean.onMessage() (400s)"
                                + " must be shorter than the transaction timeout (WildFly's"
                                + " transaction timeout, 5m, read from the server)");
        assertThat(server.serverLog())
                .contains(
                        "idemkit holds the leases of message-driven beans to WildFly's"
                                + " transaction timeout, 5m, read from the server")
                .doesNotContain("cannot read this server's JTA transaction timeout");
    }

    @Test
    void maxAttemptsAboveArtemisLimit_theBrokerMovesTheMessageToTheDlq_withoutTheEvent()
            throws Exception {
        HttpCalls limit = new HttpCalls(server.application(war(LIMIT_APP, "")));
        long sent = System.nanoTime();
        assertThat(
                        limit.postJson("api/messages?tag=" + tag + "&mode=fail&key=L-" + tag, "")
                                .status())
                .isEqualTo(200);

        String dead = "api/messages/pending/" + tag + "?queue=" + ArtemisBindings.queue("DLQ");
        Awaitility.await()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Integer.parseInt(limit.get(dead).text()) == 1);
        long toDlq = Duration.ofNanos(System.nanoTime() - sent).toMillis();
        // Measured, not asserted (docs/message-surface.md): Artemis' redelivery-delay is 0.
        System.out.printf(
                "Artemis: %d deliveries of a failing message, then DLQ, %d ms after the send%n",
                ARTEMIS_DELIVERY_ATTEMPTS, toDlq);

        String counted = "api/messages/%s/" + tag;
        assertThat(Integer.parseInt(limit.get(counted.formatted("runs")).text()))
                .as("every delivery ran the bean: idemkit had 20 attempts to give")
                .isEqualTo(ARTEMIS_DELIVERY_ATTEMPTS);
        for (int delivery = 1; delivery <= ARTEMIS_DELIVERY_ATTEMPTS; delivery++) {
            assertThat(
                            Integer.parseInt(
                                    limit.get(counted.formatted("delivery-" + delivery)).text()))
                    .as("runs whose JMSXDeliveryCount was %d", delivery)
                    .isEqualTo(1);
        }
        assertThat(Integer.parseInt(limit.get(counted.formatted("redelivered")).text()))
                .as("runs with JMSRedelivered=true")
                .isEqualTo(ARTEMIS_DELIVERY_ATTEMPTS - 1);
        assertThat(Integer.parseInt(limit.get(counted.formatted("exhausted")).text()))
                .as("the broker gave the message up, not idemkit: no IdempotencyMessageExhausted")
                .isZero();
        assertThat(Integer.parseInt(limit.get("api/messages/pending/" + tag).text())).isZero();
    }
}
