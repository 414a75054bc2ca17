package io.idemkit.it.kafka;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.cluster.TwoNodesKafka;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.harness.WildFlyServer;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The queue vectors on Kafka (C17) on WildFly: SmallRye Reactive Messaging and its connector,
 * {@code smallrye-kafka}, which WildFly's standalone configurations do not enable, so the server's
 * own copy of {@code standalone-microprofile.xml} gets it as an administrator adds it ({@code
 * src-it/wildfly/reactive-messaging.cli}: the Reactive Streams Operators and Reactive Messaging
 * subsystems, and the property that allows {@code @Blocking}); the JDBC store on a PostgreSQL this
 * test starts, through the application's own data source. A server of the test's own, which the
 * scenarios kill and start again.
 *
 * <p>A record given up is nacked ({@code idemkit.message.exhausted=nack}), so that SmallRye's
 * {@code dead-letter-queue} strategy forwards it, where Open Liberty's connector, which has no such
 * strategy, leaves that to the application.
 *
 * <p>The same WAR as on Open Liberty: the Kafka client it carries in {@code WEB-INF/lib} is unused
 * here, where the connector's module exports its own (kafka-clients 3.9.1), which the application
 * sees first.
 */
@OnRuntimes(
        value = WILDFLY,
        because =
                "a WildFly server of the test's own, with Reactive Messaging added to its"
                        + " configuration; Open Liberty runs the scenarios in KafkaLibertyIT, and"
                        + " Payara Micro 6 has no MicroProfile Reactive Messaging")
class KafkaWildFlyIT extends KafkaScenarios {

    private static final String APP = "kafka-jdbc";
    private static final String CONNECTOR = "smallrye-kafka";
    private static final Path REACTIVE_MESSAGING = Path.of("src-it/wildfly/reactive-messaging.cli");

    /**
     * The store, and the consumers closed at once when the server stops: a graceful shutdown waits
     * twice the poll timeout (2 s) per consumer, one after another, which made the last stop take
     * 14 s. The kill of {@code queue_crash_recovery} shuts nothing down either way.
     */
    private static final String CONFIG =
            ItPostgres.APP_STORE_CONFIG
                    + "mp.messaging.connector.smallrye-kafka.graceful-shutdown=false\n"
                    // The throttled commit strategy commits every 5 s by default: each test waits
                    // for a commit.
                    + "mp.messaging.connector.smallrye-kafka.auto.commit.interval.ms=500\n"
                    // A record given up is nacked, and SmallRye's dead-letter strategy forwards it
                    // (the application's own forward stands aside: DeadLetters).
                    + "idemkit.message.exhausted=nack\n"
                    + "mp.messaging.incoming.payments.failure-strategy=dead-letter-queue\n"
                    + "mp.messaging.incoming.payments.dead-letter-queue.topic="
                    + DEAD_LETTER_TOPIC
                    + "\n";

    private static EmbeddedPostgres postgres;
    private static WildFlyServer server;
    private static URI app;

    /**
     * The second server of {@link #twoServersInOneGroup_copiesOfAKeyOnBoth_runOncePerKey}, started
     * while the scenarios run on the first.
     */
    private static WildFlyServer second;

    private static CompletableFuture<HttpCalls[]> twoServers;

    @BeforeAll
    static void startServer() throws Exception {
        postgres = ItPostgres.start();
        WebArchive war = ItPostgres.withAppDataSource(war(APP, CONNECTOR, CONFIG), postgres);
        WebArchive twoWar =
                ItPostgres.withAppDataSource(twoNodesWar("kafka-two", CONNECTOR, CONFIG), postgres);
        server = new WildFlyServer("idemkit-kafka", war);
        server.configure(REACTIVE_MESSAGING);
        server.addApplication(badLeaseWar(CONNECTOR));
        server.addApplication(twoWar);
        server.start(server.application(war).resolve(PROBE));
        app = server.application(war);
        URI twoOnFirst = server.application(twoWar);
        twoServers =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                second = new WildFlyServer("idemkit-kafka-2", twoWar);
                                second.configure(REACTIVE_MESSAGING);
                                second.start(second.application(twoWar).resolve(PROBE));
                                return new HttpCalls[] {
                                    new HttpCalls(twoOnFirst),
                                    new HttpCalls(second.application(twoWar))
                                };
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        http = new HttpCalls(app);
    }

    @AfterAll
    static void stopServer() throws Exception {
        try (AutoCloseable two = second == null ? () -> {} : second) {
            if (twoServers != null) {
                twoServers.handle((started, failed) -> started).get(3, TimeUnit.MINUTES);
            }
            if (server != null) {
                server.close();
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    /** Two WildFly servers in one consumer group: this class's server, and {@link #second}. */
    @Test
    void twoServersInOneGroup_copiesOfAKeyOnBoth_runOncePerKey() throws Exception {
        TwoNodesKafka.copiesOfAKeyOnBoth_runOncePerKey(twoServers.join());
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
        return new JdbcIdempotencyStore(
                postgres.getPostgresDatabase(), JdbcStoreSettings.defaults());
    }
}
