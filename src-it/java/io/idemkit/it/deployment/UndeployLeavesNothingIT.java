package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.deployment.undeploy.ControlApplication;
import io.idemkit.it.deployment.undeploy.PidResource;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.ItRuntime;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Undeploying an application leaves nothing of idemkit behind in the server (C15.1): none of its
 * threads (the in-memory store's sweeper, the JDBC store's PostgreSQL listener, the lease
 * heartbeat, the MongoDB driver's monitors and buffer pool pruner, the Redis store's Pub/Sub
 * subscriber and the evictor of Jedis's pool), no purge ({@code idemkit.jdbc.purge-interval}, which
 * runs on the runtime's managed scheduler), and nothing that keeps the application's class loader
 * from being collected. One application per store, deployed on the suite's server beside an anchor
 * application that stays, used (a request, a duplicate that waits for it, so that every thread a
 * store starts runs), then undeployed; the test looks into the server's JVM with {@code jcmd <pid>
 * Thread.print}, and asks the anchor whether the application's class loader was collected ({@link
 * UndeployProbe#loader}). A control application without idemkit is collected on each runtime, so
 * that check tells what idemkit does (on WildFly the MongoDB store's case is reported, not
 * asserted: see its test). On Open Liberty the JDBC store's application runs on a server of its
 * own: {@link UndeployJdbcLibertyIT}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {LIBERTY, WILDFLY},
        because =
                "Payara Micro runs one application per JVM: its Arquillian container starts a JVM"
                        + " for each deployment and undeploys by stopping it, so no server outlives"
                        + " an undeployment to look into (and a second deployment beside the"
                        + " anchor cannot bind the port)")
class UndeployLeavesNothingIT {

    private static final MongoServer MONGO = ItMongo.start();
    private static EmbeddedPostgres postgres;

    @ArquillianResource private Deployer deployer;

    @ArquillianResource
    @OperateOnDeployment("anchor")
    private URL anchor;

    @Deployment(name = "anchor", testable = false)
    static WebArchive anchor() {
        return UndeployProbe.anchor();
    }

    @Deployment(name = "control", managed = false, testable = false)
    static WebArchive control() {
        return UndeployProbe.marked(
                ShrinkWrap.create(WebArchive.class, "undeploy-control.war")
                        .addClasses(ControlApplication.class, PidResource.class),
                "undeploy-control");
    }

    @Deployment(name = "memory", managed = false, testable = false)
    static WebArchive memory() {
        return UndeployProbe.removable("undeploy-memory", "idemkit.store=memory\n");
    }

    @Deployment(name = "mongo", managed = false, testable = false)
    static WebArchive mongo() {
        return UndeployProbe.removable(
                "undeploy-mongo",
                "idemkit.mongo.uri=" + ItMongo.uri(MONGO) + "\nidemkit.mongo.database=undeploy\n");
    }

    @Deployment(name = "redis", managed = false, testable = false)
    static WebArchive redis() {
        return LibraryJar.addRedisClient(
                UndeployProbe.removable("undeploy-redis", ItRedis.storeConfig()));
    }

    @Deployment(name = "jdbc", managed = false, testable = false)
    static WebArchive jdbc() {
        // Built on every runtime, deployed where its test runs: no database for it where the
        // data sources are the server's (Liberty).
        if (ItRuntime.current().definesResourcesInServerConfig()) {
            return ShrinkWrap.create(WebArchive.class, "undeploy-jdbc.war");
        }
        postgres = ItPostgres.start();
        return ItPostgres.withAppDataSource(
                UndeployProbe.removable(
                        "undeploy-jdbc", ItPostgres.APP_STORE_CONFIG + UndeployProbe.JDBC_SETTINGS),
                postgres);
    }

    @AfterAll
    static void stopStores() throws IOException {
        MONGO.shutdownNow();
        if (postgres != null) {
            postgres.close();
        }
    }

    /** The control of the class loader checks: an application without idemkit. */
    @Test
    void anApplicationWithoutIdemkit_isCollected() throws Exception {
        deployer.deploy("control");
        HttpCalls control = new HttpCalls(anchor.toURI().resolve("/undeploy-control/"));
        assertThat(control.get("api/pid").status()).isEqualTo(200);
        deployer.undeploy("control");

        assertThat(probe().loader("undeploy-control")).isEqualTo("collected");
    }

    @Test
    void theMemoryStoresApplication_leavesNothing() throws Exception {
        List<String> running = useThenUndeploy("memory", "undeploy-memory");

        assertThat(running).contains("idemkit-memory-sweeper");
        probe().assertNoLibraryThreadIsLeft();
        assertThat(probe().loader("undeploy-memory")).isEqualTo("collected");
    }

    /**
     * Where an idle request thread may hold an undeployed application ({@link
     * ItRuntime#idleRequestThreadMayHoldUndeployedApplication()}) the class loader check is made
     * and reported but not asserted. On WildFly, in three runs out of five there, an idle thread of
     * WildFly's request pool ({@code default task-3}) still referred to the last task it ran for
     * this application, an Undertow exchange, and through it to the deployment, for the whole check
     * (a heap dump showed that path, and none through idemkit or the driver); as many calls of the
     * anchor at once as the pool's default size did not make it let go. The same check passes there
     * for the in-memory and JDBC stores and the control.
     */
    @Test
    void theMongoStoresApplication_leavesNothing() throws Exception {
        List<String> running = useThenUndeploy("mongo", "undeploy-mongo");

        assertThat(running).anyMatch(name -> name.startsWith("cluster-"));
        assertThat(running).anyMatch(name -> name.startsWith("BufferPoolPruner-"));
        probe().assertNoLibraryThreadIsLeft();
        String loader = probe().loader("undeploy-mongo");
        if (!ItRuntime.current().idleRequestThreadMayHoldUndeployedApplication()) {
            assertThat(loader).isEqualTo("collected");
        }
    }

    /**
     * With the Pub/Sub subscriber, which a duplicate that waits starts (C4.3), and Jedis's pool.
     */
    @Test
    void theRedisStoresApplication_leavesNothing() throws Exception {
        List<String> running = useThenUndeploy("redis", "undeploy-redis");

        assertThat(running).contains("idemkit-redis-" + ItRedis.KEY_PREFIX + "completed");
        probe().assertNoLibraryThreadIsLeft();
        assertThat(probe().loader("undeploy-redis")).isEqualTo("collected");
    }

    /**
     * With the PostgreSQL listener, which a duplicate that waits starts (C4.3), the lease
     * heartbeat, and the purge on the runtime's managed scheduler.
     */
    @Test
    @OnRuntimes(
            value = {WILDFLY, PAYARA},
            because =
                    "an application data source on Open Liberty needs the jdbc-4.3 feature, which"
                            + " the shared IT server does not enable: UndeployJdbcLibertyIT runs"
                            + " this on a server of its own")
    void theJdbcStoresApplication_leavesNothing_andItsPurgeRunsOnTheManagedScheduler()
            throws Exception {
        deployer.deploy("jdbc");
        probe().assertJdbcApplicationLeavesNothing(
                        "undeploy-jdbc",
                        postgres.getPostgresDatabase(),
                        List.of("idemkit-listener-", "idemkit-lease-heartbeat"),
                        () -> deployer.undeploy("jdbc"));
    }

    /**
     * Deploys the application, uses it ({@link UndeployProbe#use}), then undeploys it.
     *
     * @return the library's threads that ran while it was deployed
     */
    private List<String> useThenUndeploy(String deployment, String context) throws Exception {
        assertThat(probe().libraryThreads())
                .as("no library thread before the deployment")
                .isEmpty();
        deployer.deploy(deployment);
        List<String> running = probe().use(context);
        deployer.undeploy(deployment);
        return running;
    }

    private UndeployProbe probe() throws Exception {
        return new UndeployProbe(anchor.toURI());
    }
}
