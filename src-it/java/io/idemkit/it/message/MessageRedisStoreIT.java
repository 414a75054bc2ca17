package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.spi.IdempotencyStore;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The queue vectors with the Redis store (C3, C11), on Open Liberty's embedded messaging engine,
 * with a real {@code redis-server} outside the server ({@link ItRedis}), so that a consumer killed
 * mid-run leaves its claim there ({@code queue-crash-recovery}), and Jedis in the WAR's {@code
 * WEB-INF/lib}. The attempts of a message (C11.3) are counted in Redis too.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the messaging server of these tests is Open Liberty's embedded one")
class MessageRedisStoreIT extends MessageScenarios {

    private static final String APP = "message-redis";
    private static LibertyServer server;
    private static URI app;

    @BeforeAll
    static void startServer() throws Exception {
        String storeConfig = ItRedis.storeConfig();
        WebArchive war = LibraryJar.addRedisClient(war(APP, storeConfig));
        server = new LibertyServer("idemkit-message-redis", war, messaging(APP));
        server.addApplication(LibraryJar.addRedisClient(badLeaseWar(storeConfig)));
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
    String refusal(String app) {
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
