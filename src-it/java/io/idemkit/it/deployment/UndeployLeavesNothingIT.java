package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.deployment.undeploy.AnchorApplication;
import io.idemkit.it.deployment.undeploy.PidResource;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.http.HttpScenarioSupport;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
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
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Undeploying an application leaves none of idemkit's threads behind in the server (C10): the
 * in-memory store's sweeper, the JDBC store's PostgreSQL listener and the MongoDB driver's monitors
 * (and the lease heartbeat, had one run) end with the application; and the JDBC store's purge
 * ({@code idemkit.jdbc.purge-interval}) runs on the runtime's managed scheduler and stops with it.
 * One application per store, deployed on the suite's server beside an anchor application that
 * stays, used (a request, a duplicate that waits for it, so that every thread a store starts runs),
 * then undeployed; the test looks into the server's JVM with {@code jcmd <pid> Thread.print}.
 * Whether the application's class loader is then collected is not shown here: a control without
 * idemkit was not collected either within a minute of {@code GC.run} on Open Liberty and WildFly,
 * so that check could not tell what idemkit does.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@DisabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "payara",
        disabledReason =
                "Payara Micro runs one application per JVM: its Arquillian container starts a JVM"
                        + " for each deployment and undeploys by stopping it, so no server outlives"
                        + " an undeployment to look into (and a second deployment beside the"
                        + " anchor cannot bind the port)")
class UndeployLeavesNothingIT {

    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");

    /** The threads of idemkit and of the MongoDB driver it opens. */
    private static final Pattern LIBRARY_THREAD =
            Pattern.compile("idemkit-.*|cluster-(rtt-)?ClusterId\\{.*|MaintenanceTimer-.*");

    private static final MongoServer MONGO = ItMongo.start();
    private static EmbeddedPostgres postgres;

    @ArquillianResource private Deployer deployer;

    @ArquillianResource
    @OperateOnDeployment("anchor")
    private URL anchor;

    @Deployment(name = "anchor", testable = false)
    static WebArchive anchor() {
        return ShrinkWrap.create(WebArchive.class, "undeploy-anchor.war")
                .addClasses(AnchorApplication.class, PidResource.class);
    }

    @Deployment(name = "memory", managed = false, testable = false)
    static WebArchive memory() {
        return removable("undeploy-memory", "idemkit.store=memory\n");
    }

    @Deployment(name = "mongo", managed = false, testable = false)
    static WebArchive mongo() {
        return removable(
                "undeploy-mongo",
                "idemkit.mongo.uri=" + ItMongo.uri(MONGO) + "\nidemkit.mongo.database=undeploy\n");
    }

    @Deployment(name = "jdbc", managed = false, testable = false)
    static WebArchive jdbc() {
        postgres = ItPostgres.start();
        return ItPostgres.withAppDataSource(
                removable(
                        "undeploy-jdbc",
                        ItPostgres.APP_STORE_CONFIG + "idemkit.jdbc.purge-interval=1s\n"),
                postgres);
    }

    private static WebArchive removable(String name, String config) {
        return HttpScenarioSupport.war(name, config);
    }

    @AfterAll
    static void stopStores() throws IOException {
        MONGO.shutdownNow();
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void theMemoryStoresApplication_leavesNoThread() throws Exception {
        List<String> running = useThenUndeploy("memory", "undeploy-memory");

        assertThat(running).contains("idemkit-memory-sweeper");
        assertNoLibraryThreadIsLeft();
    }

    @Test
    void theMongoStoresApplication_leavesNoThread() throws Exception {
        List<String> running = useThenUndeploy("mongo", "undeploy-mongo");

        assertThat(running).anyMatch(name -> name.startsWith("cluster-"));
        assertNoLibraryThreadIsLeft();
    }

    /** With the PostgreSQL listener, which a duplicate that waits starts (C4.3). */
    @Test
    @DisabledIfSystemProperty(
            named = "idemkit.it.runtime",
            matches = "liberty",
            disabledReason =
                    "an application data source on Open Liberty needs the jdbc-4.3 feature, which"
                            + " the shared IT server does not enable")
    void theJdbcStoresApplication_leavesNoThread() throws Exception {
        List<String> running = useThenUndeploy("jdbc", "undeploy-jdbc");

        assertThat(running).anyMatch(name -> name.startsWith("idemkit-listener-"));
        assertNoLibraryThreadIsLeft();
    }

    /**
     * {@code idemkit.jdbc.purge-interval} in a deployed application (C12): the purge runs on the
     * runtime's managed scheduler, not on a thread of the library's own; it deletes an expired row;
     * and it stops when the application is undeployed.
     */
    @Test
    @DisabledIfSystemProperty(
            named = "idemkit.it.runtime",
            matches = "liberty",
            disabledReason =
                    "an application data source on Open Liberty needs the jdbc-4.3 feature, which"
                            + " the shared IT server does not enable")
    void theJdbcStoresPurge_runsOnTheManagedScheduler_deletes_andStopsAtUndeploy()
            throws Exception {
        deployer.deploy("jdbc");
        try {
            String before = plantExpiredRow();
            Awaitility.await("the expired row purged")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> !rowExists(before));
            assertThat(libraryThreads())
                    .as("no thread of the library's own purges")
                    .doesNotContain("idemkit-jdbc-purge");
        } finally {
            deployer.undeploy("jdbc");
        }
        String after = plantExpiredRow();
        // Five intervals: a purge still scheduled would have run.
        Awaitility.await().pollDelay(Duration.ofSeconds(5)).until(() -> true);

        assertThat(rowExists(after)).as("no purge after the undeployment").isTrue();
    }

    private static String plantExpiredRow() throws SQLException {
        String key = "expired-" + UUID.randomUUID();
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                PreparedStatement insert =
                        c.prepareStatement(
                                "INSERT INTO idemkit_records (idem_key, state, lease_until)"
                                        + " VALUES (?, 'COMPLETED', 0)")) {
            insert.setString(1, key);
            insert.executeUpdate();
        }
        return key;
    }

    private static boolean rowExists(String key) throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                PreparedStatement select =
                        c.prepareStatement("SELECT 1 FROM idemkit_records WHERE idem_key = ?")) {
            select.setString(1, key);
            return select.executeQuery().next();
        }
    }

    /**
     * Deploys the application; runs a keyed request that lasts 2 s, a duplicate of it that waits
     * for it, and a replay; then undeploys it.
     *
     * @return the library's threads that ran while it was deployed
     */
    private List<String> useThenUndeploy(String deployment, String context) throws Exception {
        assertThat(libraryThreads()).as("no library thread before the deployment").isEmpty();
        deployer.deploy(deployment);
        HttpCalls http = new HttpCalls(anchor.toURI().resolve("/" + context + "/"));
        String key = "undeploy-" + UUID.randomUUID();
        String body = HttpScenarioSupport.BODY_X;
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () ->
                                http.postKeyed(
                                        "api/resources",
                                        body,
                                        key,
                                        key,
                                        HttpScenarioSupport.DELAY,
                                        "2000"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> http.get("api/calls/" + key).text().equals("1"));
        Reply waited = http.postKeyed("api/resources", body, key, key);
        List<String> running = libraryThreads();
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(waited.header("Idempotency-Replayed")).isEqualTo("true");
        System.out.println("[idemkit-it] " + deployment + "'s library threads: " + running);
        deployer.undeploy(deployment);
        return running;
    }

    private void assertNoLibraryThreadIsLeft() {
        Awaitility.await("no idemkit or MongoDB driver thread left")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(this::libraryThreads, List::isEmpty);
    }

    private List<String> libraryThreads() throws Exception {
        Matcher names = Pattern.compile("(?m)^\"([^\"]*)\"").matcher(jcmd("Thread.print"));
        List<String> found = new java.util.ArrayList<>();
        while (names.find()) {
            if (LIBRARY_THREAD.matcher(names.group(1)).matches()) {
                found.add(names.group(1));
            }
        }
        return found;
    }

    /** Runs a {@code jcmd} command against the server's JVM, whose pid the anchor tells. */
    private String jcmd(String command) throws Exception {
        String pid = new HttpCalls(anchor.toURI()).get("api/pid").text().trim();
        Process process =
                new ProcessBuilder(JCMD.toString(), pid, command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " " + command + ": " + output);
        }
        return output;
    }
}
