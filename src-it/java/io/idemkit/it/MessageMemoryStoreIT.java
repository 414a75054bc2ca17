package io.idemkit.it;

import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The queue vectors with the in-memory store, which lives in the server's process: {@code
 * queue-crash-recovery} has no claim that outlives the crash, and is skipped here.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the messaging server of these tests is Open Liberty's embedded one")
class MessageMemoryStoreIT extends MessageScenarios {

    private static final String APP = "message-memory";
    private static final String STORE_CONFIG = "idemkit.store=memory\n";
    private static LibertyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        WebArchive war = war(APP, STORE_CONFIG);
        server =
                new LibertyServer(
                        "idemkit-message-memory", LibertyServer.freePort(), war, messaging(APP));
        server.addApplication(badLeaseWar(STORE_CONFIG));
        app = server.application(war);
        start(server, app);
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
}
