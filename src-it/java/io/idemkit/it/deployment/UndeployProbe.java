package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.deployment.undeploy.AnchorApplication;
import io.idemkit.it.deployment.undeploy.LoaderMark;
import io.idemkit.it.deployment.undeploy.LoaderResource;
import io.idemkit.it.deployment.undeploy.PidResource;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.http.HttpScenarioSupport;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * What the undeploy tests look at in the server, through the anchor application that stays: the
 * JVM's threads ({@code jcmd <pid> Thread.print}), whether an undeployed application's class loader
 * can be collected ({@link LoaderResource}), and the applications they deploy and remove.
 */
final class UndeployProbe {

    private static final Path JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd");

    /**
     * The threads of idemkit and of the drivers it opens: the MongoDB driver's monitors, its pool's
     * maintenance, and its buffer pool's pruner; the evictor of Apache Commons Pool, under Jedis's
     * connection pool.
     */
    private static final Pattern LIBRARY_THREAD =
            Pattern.compile(
                    "idemkit-.*|cluster-(rtt-)?ClusterId\\{.*|MaintenanceTimer-.*"
                            + "|BufferPoolPruner-.*|commons-pool-.*");

    private final URI anchor;

    /**
     * @param anchor the anchor application's root
     */
    UndeployProbe(URI anchor) {
        this.anchor = anchor;
    }

    /** The application that stays: it tells the JVM's pid, and what became of a class loader. */
    static WebArchive anchor() {
        return ShrinkWrap.create(WebArchive.class, "undeploy-anchor.war")
                .addClasses(AnchorApplication.class, PidResource.class, LoaderResource.class);
    }

    /** The test application on a store, named {@code name}, with its class loader marked. */
    static WebArchive removable(String name, String config) {
        return marked(HttpScenarioSupport.war(name, config), name);
    }

    /** {@code war} with {@link LoaderMark}, which marks its class loader as {@code name}. */
    static WebArchive marked(WebArchive war, String name) {
        return war.addClass(LoaderMark.class)
                .addAsResource(new StringAsset(name), LoaderMark.NAME_RESOURCE);
    }

    /**
     * Runs a keyed request of the application {@code context} that lasts 1 s, a duplicate of it
     * that waits for it (sent as soon as the first runs), and a replay.
     *
     * @return the library's threads that ran meanwhile
     */
    List<String> use(String context) throws Exception {
        HttpCalls http = new HttpCalls(anchor.resolve("/" + context + "/"));
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
                                        "1000"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> http.get("api/calls/" + key).text().equals("1"));
        Reply waited = http.postKeyed("api/resources", body, key, key);
        List<String> running = libraryThreads();
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(waited.header("Idempotency-Replayed")).isEqualTo("true");
        System.out.println("[idemkit-it] " + context + "'s library threads: " + running);
        return running;
    }

    void assertNoLibraryThreadIsLeft() {
        Awaitility.await("no idemkit or MongoDB driver thread left")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(this::libraryThreads, List::isEmpty);
    }

    /**
     * @return whether the class loader of the undeployed application {@code name} can be collected,
     *     as {@link LoaderResource} answers: {@code collected} or {@code held}; when it is held, a
     *     heap dump of the server is left in {@code target/<name>-held.hprof} to find what holds it
     */
    String loader(String name) throws Exception {
        String answer = new HttpCalls(anchor).get("api/loader/" + name).text().trim();
        System.out.println("[idemkit-it] " + name + "'s class loader: " + answer);
        if (answer.equals("held")) {
            Path dump = Path.of("target", name + "-held.hprof").toAbsolutePath();
            Files.deleteIfExists(dump);
            System.out.println("[idemkit-it] " + jcmd("GC.heap_dump " + dump));
        }
        return answer;
    }

    List<String> libraryThreads() throws Exception {
        Matcher names = Pattern.compile("(?m)^\"([^\"]*)\"").matcher(jcmd("Thread.print"));
        List<String> found = new ArrayList<>();
        while (names.find()) {
            if (LIBRARY_THREAD.matcher(names.group(1)).matches()) {
                found.add(names.group(1));
            }
        }
        return found;
    }

    /** Runs a {@code jcmd} command against the server's JVM, whose pid the anchor tells. */
    private String jcmd(String command) throws Exception {
        String pid = new HttpCalls(anchor).get("api/pid").text().trim();
        Process process =
                new ProcessBuilder(JCMD.toString(), pid, command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " " + command + ": " + output);
        }
        return output;
    }

    /**
     * @return the key of a completed row that expired long ago, inserted into the JDBC store's
     *     table
     */
    static String plantExpiredRow(DataSource database) throws SQLException {
        String key = "expired-" + UUID.randomUUID();
        try (Connection c = database.getConnection();
                PreparedStatement insert =
                        c.prepareStatement(
                                "INSERT INTO idemkit_records (idem_key, state, lease_until)"
                                        + " VALUES (?, 'COMPLETED', 0)")) {
            insert.setString(1, key);
            insert.executeUpdate();
        }
        return key;
    }

    static boolean rowExists(DataSource database, String key) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement select =
                        c.prepareStatement("SELECT 1 FROM idemkit_records WHERE idem_key = ?")) {
            select.setString(1, key);
            return select.executeQuery().next();
        }
    }

    /** Removes an application from the server, and returns once it has stopped. */
    interface Undeploy {
        void run() throws Exception;
    }

    /**
     * The JDBC store's application {@code context}, with {@code idemkit.jdbc.purge-interval=500ms}
     * (C12) and the HTTP heartbeat on, deployed: used as {@link #use} does, with a thread of the
     * library's meanwhile whose name starts with each of {@code expected}; its purge deletes an
     * expired row, on the runtime's managed scheduler, not on a thread of the library's own; then,
     * once {@code undeploy} removed it, no thread of the library is left, no purge runs any more
     * and its class loader can be collected (C15.1).
     */
    void assertJdbcApplicationLeavesNothing(
            String context, DataSource database, List<String> expected, Undeploy undeploy)
            throws Exception {
        List<String> running = use(context);
        for (String prefix : expected) {
            assertThat(running).anyMatch(name -> name.startsWith(prefix));
        }
        String before = plantExpiredRow(database);
        Awaitility.await("the expired row purged")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !rowExists(database, before));
        assertThat(libraryThreads())
                .as("no thread of the library's own purges")
                .doesNotContain("idemkit-jdbc-purge");

        undeploy.run();
        String after = plantExpiredRow(database);
        long planted = System.nanoTime();
        assertNoLibraryThreadIsLeft();
        assertThat(loader(context)).isEqualTo("collected");
        // Four intervals: a purge still scheduled would have run.
        long waitedMillis = (System.nanoTime() - planted) / 1_000_000;
        Awaitility.await()
                .pollDelay(Duration.ofMillis(Math.max(0, 2000 - waitedMillis)))
                .until(() -> true);
        assertThat(rowExists(database, after)).as("no purge after the undeployment").isTrue();
    }

    /** The JDBC store's settings of {@link #assertJdbcApplicationLeavesNothing}. */
    static final String JDBC_SETTINGS =
            "idemkit.jdbc.purge-interval=500ms\nidemkit.http.heartbeat=true\n";
}
