package io.idemkit.it.harness;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A WildFly server of the test's own, beside the one Arquillian manages, in the installation the
 * build unpacked: a server base directory of its own under {@code target/wildfly/servers} with a
 * copy of the IT configurations ({@code standalone-microprofile.xml} with the ejb3 subsystem, or
 * {@link #FULL}), the application in its deployment scanner's folder, every socket on loopback and
 * on ports of {@link TestPorts}; started with {@code bin/standalone.sh}, stopped with SIGTERM
 * (WildFly's ordinary shutdown) and killed with SIGKILL.
 */
public final class WildFlyServer implements OwnServer {

    private static final Path HOME =
            Path.of(System.getProperty("wildfly.home", "target/wildfly/wildfly-39.0.1.Final"))
                    .toAbsolutePath();

    /**
     * The full profile, with the embedded ActiveMQ Artemis broker (in-VM only) and the message ITs'
     * queues, as {@code src-it/wildfly/it-server-full.cli} set it up.
     */
    public static final String FULL = "standalone-full.xml";

    private static final String MICROPROFILE = "standalone-microprofile.xml";

    /** What each CLI script made of each configuration file, in this JVM ({@link #configure}). */
    private static final Map<Configured, String> CONFIGURED = new ConcurrentHashMap<>();

    /** A configuration file before a CLI script changed it: the script, and the file's text. */
    private record Configured(String script, String before) {}

    private final Path base;
    private final String config;
    private final String name;
    private int[] ports = ports();
    private boolean started;
    private Process launcher;

    /**
     * Creates (or recreates) the server's base directory, with {@code war} to deploy.
     *
     * @param name the server's name
     * @param war the application
     */
    public WildFlyServer(String name, WebArchive war) throws IOException {
        this(name, war, MICROPROFILE);
    }

    /**
     * Creates (or recreates) the server's base directory, with {@code war} to deploy.
     *
     * @param name the server's name
     * @param war the application
     * @param config the server configuration it starts with, {@code standalone-microprofile.xml} or
     *     {@link #FULL}
     */
    public WildFlyServer(String name, WebArchive war, String config) throws IOException {
        this.name = name;
        this.config = config;
        this.base = HOME.getParent().resolve("servers").resolve(name);
        OwnServer.deleteTree(base);
        Path configuration = HOME.resolve("standalone/configuration");
        Files.createDirectories(base.resolve("configuration"));
        try (var files = Files.list(configuration)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path copy = base.resolve("configuration").resolve(file.getFileName());
                Files.copy(file, copy);
                if (copy.getFileName().toString().endsWith(".xml")) {
                    // The deployments Arquillian's server has at this moment are its, not this
                    // server's: a copy with them does not boot (WFLYCTL0212 Duplicate resource).
                    Files.writeString(
                            copy, DEPLOYMENTS.matcher(Files.readString(copy)).replaceAll(""));
                }
            }
        }
        Files.createDirectories(base.resolve("deployments"));
        war.as(ZipExporter.class)
                .exportTo(base.resolve("deployments").resolve(war.getName()).toFile());
    }

    /**
     * Changes the server's configuration before it starts, as an administrator does, with WildFly's
     * own offline CLI on this server's base directory ({@code JAVA_OPTS=-Djboss.server.base.dir=...
     * bin/jboss-cli.sh --file=<cli>}); what it printed goes to {@code cli.log} there.
     *
     * <p>A second server of this JVM that a script configures as it configured one before takes
     * that one's result, without running the CLI again.
     *
     * @param cli a CLI script that embeds the server on the configuration it starts with ({@code
     *     embed-server --server-config=...}), changes it and stops it; it changes that file alone
     */
    public void configure(Path cli) throws IOException, InterruptedException {
        Path configured = base.resolve("configuration").resolve(config);
        String script = cli.toAbsolutePath() + "\n" + Files.readString(cli);
        // The CLI boots an embedded server: about 10 s of CPU saved per reuse.
        Configured before = new Configured(script, Files.readString(configured));
        String same = CONFIGURED.get(before);
        if (same != null) {
            Files.writeString(configured, same);
            return;
        }
        runCli(cli);
        CONFIGURED.put(before, Files.readString(configured));
    }

    private void runCli(Path cli) throws IOException, InterruptedException {
        Path log = base.resolve("cli.log");
        ProcessBuilder builder =
                new ProcessBuilder(
                                HOME.resolve("bin/jboss-cli.sh").toString(),
                                "--file=" + cli.toAbsolutePath())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_OPTS", "-Djboss.server.base.dir=" + base);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("The WildFly CLI did not end: see " + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "The WildFly CLI failed on "
                            + cli
                            + " ("
                            + process.exitValue()
                            + "): see "
                            + log);
        }
    }

    /**
     * Adds an application to the deployment scanner's folder, before the server starts.
     *
     * @param war the application
     */
    public void addApplication(WebArchive war) {
        war.as(ZipExporter.class).exportTo(deployment(war).toFile());
    }

    /**
     * @param war an application of this server
     * @return its file in the deployment scanner's folder, beside which the scanner writes {@code
     *     <name>.deployed} or {@code <name>.failed} (with the reason)
     */
    public Path deployment(WebArchive war) {
        return base.resolve("deployments").resolve(war.getName());
    }

    /**
     * Waits until the deployment scanner has refused {@code app}.
     *
     * @param app the name of an application of this server (its WAR's, without {@code .war})
     * @return the reason, as its {@code <app>.war.failed} marker gives it
     */
    public String awaitRefusal(String app) throws IOException {
        Path failed = base.resolve("deployments").resolve(app + ".war.failed");
        Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> Files.exists(failed));
        // The scanner may still be writing it.
        return Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> Files.readString(failed), reason -> !reason.isBlank());
    }

    /**
     * @return the server's {@code log/server.log} so far
     */
    public String serverLog() throws IOException {
        Path log = base.resolve("log/server.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public URI application(WebArchive war) {
        String context = war.getName().replaceFirst("\\.war$", "");
        return URI.create("http://127.0.0.1:" + ports[HTTP] + "/" + context + "/");
    }

    /**
     * Starts the server; at its first start, one that exits because a port of its own was taken
     * after {@link TestPorts} checked it is started once more on new ports.
     */
    @Override
    public void start(URI probe) throws IOException, InterruptedException {
        try {
            startOnce(probe);
        } catch (OwnServer.PortTaken e) {
            if (started) {
                throw e;
            }
            TestPorts.retrying("WildFly " + name, ports[HTTP], e.getMessage());
            if (launcher.isAlive()) {
                kill();
            }
            int was = ports[HTTP];
            ports = ports();
            startOnce(OwnServer.moved(probe, was, ports[HTTP]));
        }
        started = true;
    }

    private void startOnce(URI probe) throws IOException, InterruptedException {
        Path console = base.resolve("console.log");
        long from = Files.exists(console) ? Files.size(console) : 0;
        bindTransactionPorts();
        launcher =
                new ProcessBuilder(
                                HOME.resolve("bin/standalone.sh").toString(),
                                "-c",
                                config,
                                "-Djboss.server.base.dir=" + base,
                                "-b=127.0.0.1",
                                "-bmanagement=127.0.0.1",
                                "-Djboss.http.port=" + ports[HTTP],
                                "-Djboss.https.port=" + ports[1],
                                "-Djboss.management.http.port=" + ports[2],
                                "-Djboss.management.https.port=" + ports[3],
                                "-Djboss.ajp.port=" + ports[4])
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                        .start();
        OwnServer.awaitAnswer(probe, launcher, console, () -> OwnServer.bindFailure(console, from));
    }

    /** Index of the HTTP port in {@link #ports}. */
    private static final int HTTP = 0;

    /**
     * @return HTTP, HTTPS, management HTTP and HTTPS, AJP, and the transaction manager's recovery
     *     and status ports, every one of {@link TestPorts}
     */
    private static int[] ports() {
        int[] ports = new int[7];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = TestPorts.next();
        }
        return ports;
    }

    /**
     * Puts the transaction manager's two sockets, which the configuration binds to fixed ports
     * (4712, 4713) without a property to move them, on ports of the server's own.
     */
    private void bindTransactionPorts() throws IOException {
        Path file = base.resolve("configuration").resolve(config);
        String xml = Files.readString(file);
        xml =
                TRANSACTION_PORT
                        .matcher(xml)
                        .replaceAll(
                                m ->
                                        m.group(1)
                                                + (m.group(2).equals("txn-recovery-environment")
                                                        ? ports[5]
                                                        : ports[6])
                                                + "\"");
        Files.writeString(file, xml);
    }

    private static final Pattern DEPLOYMENTS =
            Pattern.compile("(?s)\\s*<deployments>.*?</deployments>");

    private static final Pattern TRANSACTION_PORT =
            Pattern.compile(
                    "(<socket-binding name=\"(txn-recovery-environment|txn-status-manager)\""
                            + "[^>]*?port=\")\\d+\"");

    @Override
    public void stop() throws IOException, InterruptedException {
        // SIGTERM to the server's JVM runs WildFly's shutdown hook, an ordinary stop.
        server().destroy();
        if (!launcher.waitFor(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("WildFly " + base + " did not stop");
        }
    }

    @Override
    public void kill() throws IOException {
        ProcessHandle server = server();
        server.destroyForcibly();
        server.onExit().join();
    }

    @Override
    public void close() throws Exception {
        if (launcher != null && launcher.isAlive()) {
            stop();
        }
    }

    /** The server's JVM: standalone.sh runs it as its child. */
    private ProcessHandle server() {
        return launcher.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("java"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no WildFly JVM under " + launcher));
    }
}
