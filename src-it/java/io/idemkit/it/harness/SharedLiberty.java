package io.idemkit.it.harness;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * One Open Liberty server for the JDBC integration tests that need only <em>a</em> server with
 * server-defined data sources, started the first time a class asks for it in a failsafe JVM and
 * ended, with its databases, when that JVM ends (a shutdown hook): a server start, and a database
 * start, per class was most of those classes' time (CONTRIBUTING, "Where the test command's time
 * goes").
 *
 * <p>It holds the data sources of both databases, each started once here: {@code jdbc/idemkit} (not
 * enlisted in JTA) and {@code jdbc/business} on a PostgreSQL ({@link ItPostgres}), and {@code
 * jdbc/idemkit-mariadb} and {@code jdbc/business-mariadb} on a MariaDB ({@link ItMariaDb}); and the
 * features of {@code liberty-config/server.xml} with {@code jdbc-4.3} and the IT servers' {@code
 * src-it/liberty/it-security.xml} (appSecurity, which brings the Servlet API). Each class deploys
 * its own application under its own context root ({@link #deploy}) and removes it at its end
 * ({@link #undeploy}); the applications share each database's table, their keys being each test's
 * own.
 *
 * <p>A test that kills or restarts a server, or needs a setting of the server that the others must
 * not have, starts a server of its own ({@link LibertyServer}), which may reach these databases
 * through {@link #postgresDataSources()} and {@link #mariaDbDataSources()}.
 */
public final class SharedLiberty {

    /** Added to the MariaDB data sources' ids and JNDI names ({@link ItMariaDb}). */
    public static final String MARIADB = "-mariadb";

    /** An application's configuration of the JDBC store on the MariaDB data source. */
    public static final String MARIADB_STORE_CONFIG =
            "idemkit.store=jdbc\nidemkit.jdbc.datasource=jdbc/idemkit" + MARIADB + "\n";

    /**
     * The body of a {@code <server>} element that gives a server the features of the one the other
     * stores' scenarios run on: appSecurity, and with it the Servlet API.
     */
    public static final String IT_SECURITY =
            "\n<include location=\""
                    + Path.of("src-it/liberty/it-security.xml").toAbsolutePath()
                    + "\"/>\n";

    private static final String NAME = "idemkit-shared-jdbc";
    private static final String READY = "shared-ready";

    private static SharedLiberty instance;

    /** What has been started, the last first: stopped when the JVM ends. */
    private static final Deque<AutoCloseable> started = new ArrayDeque<>();

    private static boolean hooked;

    private final EmbeddedPostgres postgres;
    private final CompletableFuture<ItMariaDb> mariaDb;
    private final LibertyServer server;
    private boolean mariaDbOnServer;

    private SharedLiberty(
            EmbeddedPostgres postgres, CompletableFuture<ItMariaDb> mariaDb, LibertyServer server) {
        this.postgres = postgres;
        this.mariaDb = mariaDb;
        this.server = server;
    }

    /**
     * @return the server of this JVM, started with its databases at the first call
     */
    public static synchronized SharedLiberty get() throws Exception {
        if (instance == null) {
            if (!hooked) {
                hooked = true;
                // Registered before anything starts: a JVM that ends mid-start stops what has.
                Runtime.getRuntime()
                        .addShutdownHook(
                                new Thread(SharedLiberty::stopAll, "idemkit-shared-liberty-stop"));
            }
            try {
                instance = start();
            } catch (Exception | Error e) {
                stopAll();
                throw e;
            }
        }
        return instance;
    }

    private static SharedLiberty start() throws Exception {
        // MariaDB takes the longest to start (its install script): meanwhile, PostgreSQL and the
        // server, which is given MariaDB's data sources when a test first asks for them.
        CompletableFuture<ItMariaDb> mariaDb = CompletableFuture.supplyAsync(ItMariaDb::start);
        started.push(
                () -> {
                    ItMariaDb db = mariaDb.exceptionally(e -> null).join();
                    if (db != null) {
                        db.close();
                    }
                });
        EmbeddedPostgres postgres = ItPostgres.start();
        started.push(postgres);
        WebArchive ready =
                ShrinkWrap.create(WebArchive.class, READY + ".war")
                        .addAsWebResource(new StringAsset("ready"), "index.html");
        LibertyServer server =
                new LibertyServer(
                        NAME, ready, ItPostgres.libertyDataSources(postgres) + IT_SECURITY);
        // At the JVM's end, killed: its stop would prove nothing, and take 3 s.
        started.push(server::discard);
        Files.createDirectories(server.directory().resolve("apps"));
        server.start(server.application(ready).resolve("index.html"));
        return new SharedLiberty(postgres, mariaDb, server);
    }

    /**
     * Deploys {@code war} on the server, under the context root of its name, and waits until {@code
     * probe} answers 200.
     *
     * @param war the application
     * @param probe a path of the application that answers 200 once it runs
     * @param applicationConfig the body of its {@code <webApplication>} element, such as a {@code
     *     <classloader>}, or an empty string
     * @return the application's root
     * @throws IllegalStateException when the server refuses the application
     */
    public URI deploy(WebArchive war, String probe, String applicationConfig) throws IOException {
        install(war, applicationConfig);
        URI root = server.application(war);
        awaitRunning(app(war), root.resolve(probe));
        return root;
    }

    /**
     * Deploys {@code war}, an application the server is to refuse, under the context root of its
     * name, and waits until the server refuses it; {@link #removeRefused} takes it away.
     *
     * @param war the application
     * @return the server's line that refuses it ({@code CWWKZ0002E})
     */
    public String deployRefused(WebArchive war) throws IOException {
        install(war, "");
        return server.awaitRefusal(app(war));
    }

    /**
     * Removes an application that {@link #deployRefused} deployed, and waits until the server has
     * read its configuration without it: a refused application has nothing to stop.
     *
     * @param war the application
     */
    public void removeRefused(WebArchive war) throws IOException {
        long updatesBefore = configUpdates();
        Files.delete(config(app(war)));
        Awaitility.await(app(war) + " removed")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> configUpdates() > updatesBefore);
        Files.deleteIfExists(server.directory().resolve("apps").resolve(war.getName()));
    }

    /**
     * Writes {@code war} into the server's {@code apps} folder, and its {@code webApplication} into
     * the configuration.
     */
    private void install(WebArchive war, String applicationConfig) throws IOException {
        String app = app(war);
        Path apps = server.directory().resolve("apps");
        war.as(ZipExporter.class).exportTo(apps.resolve(war.getName()).toFile(), true);
        // Written whole, then moved in: the server must not read half a file.
        Path config = config(app);
        Path written = Files.createTempFile(apps, app, ".xml");
        Files.writeString(
                written,
                "<server>\n  <webApplication id=\""
                        + app
                        + "\" name=\""
                        + app
                        + "\" location=\""
                        + war.getName()
                        + "\" contextRoot=\"/"
                        + app
                        + "\">"
                        + applicationConfig
                        + "</webApplication>\n</server>\n");
        Files.move(written, config, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Removes an application that {@link #deploy} deployed, and waits until the server has stopped
     * it.
     *
     * @param war the application
     */
    public void undeploy(WebArchive war) throws IOException {
        String app = app(war);
        long stoppedBefore = stopped(app);
        Files.delete(config(app));
        Awaitility.await(app + " stopped")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> stopped(app) > stoppedBefore);
        Files.deleteIfExists(server.directory().resolve("apps").resolve(war.getName()));
    }

    private long stopped(String app) throws IOException {
        return server.messagesLog()
                .lines()
                .filter(l -> l.contains("CWWKZ0009I: The application " + app + " "))
                .count();
    }

    private void awaitRunning(String app, URI probe) {
        HttpClient client = HttpClient.newHttpClient();
        Pattern refused = Pattern.compile("CWWKZ0002E[^\\n]*\\b" + app + "\\b[^\\n]*");
        Awaitility.await(app + " running")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(
                        () -> {
                            Matcher m = refused.matcher(server.messagesLog());
                            if (m.find()) {
                                throw new IllegalStateException(m.group());
                            }
                            return client.send(
                                                    HttpRequest.newBuilder(probe)
                                                            .timeout(Duration.ofSeconds(10))
                                                            .build(),
                                                    HttpResponse.BodyHandlers.discarding())
                                            .statusCode()
                                    == 200;
                        });
    }

    private Path config(String app) {
        return server.directory().resolve("configDropins/overrides/app-" + app + ".xml");
    }

    private static String app(WebArchive war) {
        return war.getName().replaceFirst("\\.war$", "");
    }

    /**
     * @return the server, for its log; a test must not stop or kill it
     */
    public LibertyServer server() {
        return server;
    }

    /**
     * @return the PostgreSQL of the data sources {@code jdbc/idemkit} and {@code jdbc/business}
     */
    public EmbeddedPostgres postgres() {
        return postgres;
    }

    /**
     * @return the MariaDB of the data sources {@code jdbc/idemkit-mariadb} and {@code
     *     jdbc/business-mariadb}, which the server has from this call on (the first call waits
     *     until the MariaDB runs, and adds them to the server)
     */
    public synchronized ItMariaDb mariaDb() throws IOException {
        ItMariaDb db = mariaDb.join();
        if (!mariaDbOnServer) {
            long updatesBefore = configUpdates();
            Path written = Files.createTempFile(server.directory(), "mariadb", ".xml");
            Files.writeString(
                    written, "<server>\n" + db.libertyDataSources(MARIADB) + "\n</server>\n");
            Files.move(
                    written,
                    server.directory().resolve("configDropins/overrides/mariadb.xml"),
                    StandardCopyOption.ATOMIC_MOVE);
            Awaitility.await("the MariaDB data sources on the server")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> configUpdates() > updatesBefore);
            mariaDbOnServer = true;
        }
        return db;
    }

    private long configUpdates() throws IOException {
        return server.messagesLog().lines().filter(l -> l.contains("CWWKG0017I")).count();
    }

    /**
     * @return the body of a {@code <server>} element that gives another server this one's
     *     PostgreSQL data sources ({@link ItPostgres#libertyDataSources})
     */
    public String postgresDataSources() {
        return ItPostgres.libertyDataSources(postgres);
    }

    /**
     * @return the body of a {@code <server>} element that gives another server this one's MariaDB
     *     data sources, {@code jdbc/idemkit-mariadb} and {@code jdbc/business-mariadb}
     */
    public String mariaDbDataSources() throws IOException {
        return mariaDb().libertyDataSources(MARIADB);
    }

    /**
     * Starts a server of a test's own on another thread, so that it starts while the test runs
     * others: for the test that kills a server, beside the scenarios that run on this one.
     *
     * @param name the server's name, unique among the tests
     * @param war its application
     * @param config the body of its {@code <server>} element, such as {@link
     *     #postgresDataSources()} and {@link #IT_SECURITY}
     * @param probe a path of the application that answers 200 once it runs
     * @return the server, once it has started; the caller closes it. A server that fails to start
     *     is stopped, and the future fails.
     */
    public static CompletableFuture<LibertyServer> startInBackground(
            String name, WebArchive war, String config, String probe) {
        return CompletableFuture.supplyAsync(
                () -> {
                    LibertyServer server = null;
                    try {
                        server = new LibertyServer(name, war, config);
                        server.start(server.application(war).resolve(probe));
                        return server;
                    } catch (Exception e) {
                        try {
                            if (server != null) {
                                server.close();
                            }
                        } catch (Exception stopping) {
                            e.addSuppressed(stopping);
                        }
                        throw new IllegalStateException(
                                "Open Liberty " + name + " did not start", e);
                    }
                });
    }

    /** Stops what {@link #start} started, the server first, then the databases. */
    private static synchronized void stopAll() {
        while (!started.isEmpty()) {
            AutoCloseable part = started.pop();
            try {
                part.close();
            } catch (Exception e) {
                System.err.println("Could not stop " + part + ": " + e);
            }
        }
    }
}
