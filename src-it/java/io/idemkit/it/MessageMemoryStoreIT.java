package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The queue vectors with the in-memory store, and the lease rule (the reference's
 * queue-lease-shorter-than-visibility) refusing a second application at deployment.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the messaging server of these tests is Open Liberty's embedded one")
class MessageMemoryStoreIT extends MessageScenarios {

    private static final String APP = "message-memory";
    private static final String BAD_LEASE_APP = "message-bad-lease";
    private static LibertyServer server;

    @BeforeAll
    static void startServer() throws Exception {
        WebArchive war = war(APP, "idemkit.store=memory\n");
        server =
                new LibertyServer(
                        "idemkit-message-memory", LibertyServer.freePort(), war, messaging(APP));
        server.addApplication(
                war(
                        BAD_LEASE_APP,
                        "idemkit.store=memory\n"
                                + "idemkit.message.transaction-timeout=8s\n"
                                + "idemkit.wait-timeout=2s\n"));
        start(server, server.application(war));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void queue_lease_shorter_than_visibility() throws Exception {
        // The lease (8s) is not shorter than the transaction timeout (8s): that application is
        // refused at deployment, and the other one of the server runs on.
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(() -> server.messagesLog().contains("CWWKZ0002E"));
        assertThat(server.messagesLog())
                .containsPattern(
                        "(?s)CWWKZ0002E.*"
                                + BAD_LEASE_APP
                                + ".*The lease of io.idemkit.it.message.OrdersBean.onMessage\\(\\)"
                                + " .*\\(8s\\) must be shorter than the transaction timeout"
                                + " \\(idemkit.message.transaction-timeout=8s\\)");
        URI badApp =
                server.application(ShrinkWrap.create(WebArchive.class, BAD_LEASE_APP + ".war"));
        assertThat(new HttpCalls(badApp).get("api/messages/runs/x").status()).isEqualTo(404);
        assertThat(http.get("api/messages/runs/x").status()).isEqualTo(200);
    }
}
