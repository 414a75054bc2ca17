package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ArtemisBindings;
import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.spi.IdempotencyStore;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The queue vectors with the Redis store (C3, C11) on WildFly's full profile, whose message-driven
 * beans take their messages from the embedded ActiveMQ Artemis broker (in-VM), with a real {@code
 * redis-server} outside the server ({@link ItRedis}) and Jedis in the WAR's {@code WEB-INF/lib}.
 * {@code queue-crash-recovery} kills WildFly, broker included, mid-run: the claim stays in Redis,
 * and the persistent message comes back from Artemis' journal after the restart.
 */
@OnRuntimes(
        value = WILDFLY,
        because = "the broker of these tests is WildFly's embedded ActiveMQ Artemis")
class MessageArtemisRedisStoreIT extends MessageScenarios {

    private static final String APP = "message-artemis-redis";

    private static WildFlyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        String storeConfig = ItRedis.storeConfig();
        WebArchive war = ArtemisBindings.on(LibraryJar.addRedisClient(war(APP, storeConfig)), "");
        server = new WildFlyServer("idemkit-message-artemis-redis", war, WildFlyServer.FULL);
        server.addApplication(
                ArtemisBindings.on(LibraryJar.addRedisClient(badLeaseWar(storeConfig)), ""));
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

    @Override
    IdempotencyStore storeOfAnotherProcess() {
        return ItRedis.storeOfAnotherProcess();
    }
}
