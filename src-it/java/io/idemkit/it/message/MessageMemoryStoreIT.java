package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue vectors with the in-memory store, which lives in the server's process: {@code
 * queue-crash-recovery} has no claim that outlives the crash, and is skipped here. And what the
 * deployment refuses, each in an application of its own beside the one that runs: the lease rule
 * against the transaction timeout read from the server's {@code transaction} element (C11.4), and
 * {@code scope-source=principal} (C11.6).
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the messaging server of these tests is Open Liberty's embedded one")
class MessageMemoryStoreIT extends MessageScenarios {

    private static final String APP = "message-memory";
    private static final String STORE_CONFIG = "idemkit.store=memory\n";
    private static final String SERVER_TIMEOUT_APP = "message-server-timeout";
    private static final String PRINCIPAL_APP = "message-principal-scope";

    /**
     * The server's transaction timeout: shorter than Open Liberty's default of 120s, which the
     * lease rule once assumed, and longer than what the running application's lease and wait need.
     */
    private static final String TRANSACTION = "<transaction totalTranLifetimeTimeout=\"60s\"/>";

    private static LibertyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        WebArchive war = war(APP, STORE_CONFIG);
        server = new LibertyServer("idemkit-message-memory", war, messaging(APP) + TRANSACTION);
        server.addApplication(badLeaseWar(STORE_CONFIG));
        // A wait the 120s assumption would accept, and the server's 60s refuses.
        server.addApplication(war(SERVER_TIMEOUT_APP, STORE_CONFIG + "idemkit.wait-timeout=90s\n"));
        server.addApplication(
                war(PRINCIPAL_APP, STORE_CONFIG + "idemkit.scope-source=principal\n"));
        app = start(server, war);
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    LibertyServer server() {
        return server;
    }

    @Override
    URI application() {
        return app;
    }

    @Override
    String refusal(String app) {
        return server.awaitRefusal(app);
    }

    @Test
    void theLeaseRule_readsTheServersTransactionTimeout_whenNoneIsConfigured() throws Exception {
        // C11.4: the timeout comes from the server's transaction element, not from an assumption.
        assertThat(refusal(SERVER_TIMEOUT_APP))
                .containsPattern(
                        "The wait timeout of io.idemkit.it.message.app.OrdersBean.onMessage\\(\\)"
                                + " \\(90s\\) must be shorter than the transaction timeout"
                                + " \\(Open Liberty's transaction timeout, 1m, read from the server\\)");
        // The running application read it too, and assumed nothing.
        assertThat(server.messagesLog())
                .contains(
                        "idemkit holds the leases of message-driven beans to Open Liberty's"
                                + " transaction timeout, 1m, read from the server")
                .doesNotContain("cannot read this server's JTA transaction timeout");
        assertThat(http.get("api/messages/runs/x").status()).isEqualTo(200);
    }

    @Test
    void scopeSourcePrincipal_refusesTheApplication_whoseDeliveriesHaveNoCaller() throws Exception {
        // C11.6: every message would be given up unrun.
        assertThat(refusal(PRINCIPAL_APP))
                .containsPattern(
                        "idemkit.scope-source=principal cannot scope the messages of"
                                + " io.idemkit.it.message.app.OrdersBean.onMessage\\(\\)");
    }
}
