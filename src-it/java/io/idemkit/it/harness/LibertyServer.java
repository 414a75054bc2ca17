package io.idemkit.it.harness;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * An Open Liberty server of the test's own, beside the one Arquillian manages, in the runtime the
 * build installed: created from {@code liberty-config/server.xml} on ports of its own, started and
 * stopped with {@code bin/server}, and killed with SIGKILL, for the tests that must really stop a
 * server (a restart, a crash mid-request).
 */
public final class LibertyServer implements OwnServer {

    private static final Path WLP =
            Path.of(System.getProperty("liberty.wlp.home", "target/liberty/wlp")).toAbsolutePath();
    private static final Path CONFIG = Path.of("liberty-config/server.xml").toAbsolutePath();

    private final String name;
    private final Path dir;
    private int httpPort = TestPorts.next();
    private int httpsPort = TestPorts.next();
    private boolean started;

    /**
     * Creates (or recreates) the server, with {@code war} in its dropins folder, on ports of {@link
     * TestPorts}.
     *
     * @param name the server's name
     * @param war the application
     */
    public LibertyServer(String name, WebArchive war) throws IOException {
        this(name, war, "");
    }

    /**
     * Creates (or recreates) the server, with {@code war} in its dropins folder and {@code
     * overrides} (the body of a {@code <server>} element) as a configuration drop-in, on ports of
     * {@link TestPorts}.
     */
    public LibertyServer(String name, WebArchive war, String overrides) throws IOException {
        this.name = name;
        this.dir = WLP.resolve("usr/servers").resolve(name);
        OwnServer.deleteTree(dir);
        Files.createDirectories(dir.resolve("dropins"));
        Files.createDirectories(dir.resolve("configDropins/overrides"));
        Files.copy(CONFIG, dir.resolve("server.xml"));
        writePorts();
        if (!overrides.isBlank()) {
            Files.writeString(
                    dir.resolve("configDropins/overrides/test-overrides.xml"),
                    "<server>\n" + overrides + "\n</server>\n");
        }
        Files.writeString(
                dir.resolve("jvm.options"), "-XX:TieredStopAtLevel=1\n-XX:+UseSerialGC\n");
        war.as(ZipExporter.class).exportTo(dir.resolve("dropins").resolve(war.getName()).toFile());
    }

    private void writePorts() throws IOException {
        Files.writeString(
                dir.resolve("configDropins/overrides/test-server.xml"),
                "<server>\n"
                        + "  <variable name=\"http.port\" value=\""
                        + httpPort
                        + "\"/>\n"
                        + "  <variable name=\"https.port\" value=\""
                        + httpsPort
                        + "\"/>\n"
                        // Deployed by copying a file, not by Arquillian's MBean.
                        + "  <applicationMonitor updateTrigger=\"polled\"/>\n"
                        + "</server>\n");
    }

    /**
     * Adds an application to the dropins folder, before the server starts.
     *
     * @param war the application
     */
    public void addApplication(WebArchive war) {
        war.as(ZipExporter.class).exportTo(dir.resolve("dropins").resolve(war.getName()).toFile());
    }

    /**
     * Removes an application from the dropins folder of the running server, and waits until the
     * server has stopped it ({@code CWWKZ0009I}).
     *
     * @param war the application
     */
    public void removeApplication(WebArchive war) throws IOException {
        String app = war.getName().replaceFirst("\\.war$", "");
        Files.delete(dir.resolve("dropins").resolve(war.getName()));
        Awaitility.await(app + " stopped")
                .atMost(Duration.ofSeconds(60))
                .until(() -> messagesLog().contains("CWWKZ0009I: The application " + app + " "));
    }

    /**
     * @return the server's folder, {@code usr/servers/<name>} (its {@code apps} and {@code
     *     configDropins} are there)
     */
    public Path directory() {
        return dir;
    }

    /**
     * Adds an option to the server's JVM, before it starts.
     *
     * @param option such as {@code -XX:SoftRefLRUPolicyMSPerMB=0}
     */
    public void addJvmOption(String option) throws IOException {
        Files.writeString(
                dir.resolve("jvm.options"), option + "\n", java.nio.file.StandardOpenOption.APPEND);
    }

    /**
     * @return the server's {@code messages.log} so far
     */
    public String messagesLog() throws IOException {
        Path log = dir.resolve("logs/messages.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Waits until the server has refused to start {@code app}.
     *
     * @param app the name of an application of this server
     * @return the message in which it says so ({@code CWWKZ0002E}), with the reason, on as many
     *     lines as it takes
     */
    public String awaitRefusal(String app) {
        // The message's own lines: a CDI definition error lists its exceptions on the next ones,
        // up to the next entry, which begins with its time in brackets. Whole once that entry
        // follows, or once it stays the same from one look to the next.
        Pattern message =
                Pattern.compile("CWWKZ0002E[^\\n]*\\b" + app + "\\b[^\\n]*(\\n(?!\\[)[^\\n]*)*");
        AtomicReference<String> seen = new AtomicReference<>();
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> {
                            String log = messagesLog();
                            Matcher m = message.matcher(log);
                            if (!m.find()) {
                                return null;
                            }
                            boolean followed = log.startsWith("\n[", m.end());
                            return followed || m.group().equals(seen.getAndSet(m.group()))
                                    ? m.group()
                                    : null;
                        },
                        found -> found != null);
    }

    /**
     * @return the application's root, {@code http://localhost:port/<war name>/}
     */
    @Override
    public URI application(WebArchive war) {
        String context = war.getName().replaceFirst("\\.war$", "");
        return URI.create("http://localhost:" + httpPort + "/" + context + "/");
    }

    /**
     * Starts the server and waits until {@code probe} answers. At its first start, a server whose
     * port another program took after {@link TestPorts} checked it ({@code CWWKO0221E}) is killed,
     * as the other runtimes' are, and started once more on new ports: ask {@link #application}
     * again afterwards.
     */
    @Override
    public void start(URI probe) throws IOException, InterruptedException {
        try {
            startOnce(probe);
        } catch (OwnServer.PortTaken e) {
            if (started) {
                throw e;
            }
            TestPorts.retrying("Open Liberty " + name, httpPort, e.getMessage());
            discard();
            int was = httpPort;
            httpPort = TestPorts.next();
            httpsPort = TestPorts.next();
            writePorts();
            startOnce(OwnServer.moved(probe, was, httpPort));
        }
        started = true;
    }

    private void startOnce(URI probe) throws IOException, InterruptedException {
        run("start");
        Pattern bindFailed =
                Pattern.compile(
                        "CWWKO0221E[^\\n]*\\b(" + httpPort + "|" + httpsPort + ")\\b[^\\n]*");
        OwnServer.awaitAnswer(
                probe,
                null,
                dir.resolve("logs/messages.log"),
                () -> {
                    Matcher m = bindFailed.matcher(messagesLog());
                    return m.find() ? m.group() : null;
                });
    }

    /** Stops the server the ordinary way. */
    @Override
    public void stop() throws IOException, InterruptedException {
        run("stop");
    }

    /** Kills the server's JVM with SIGKILL: no shutdown hook, no request finishes. */
    @Override
    public void kill() throws IOException {
        long pid =
                Long.parseLong(
                        Files.readString(WLP.resolve("usr/servers/.pid/" + name + ".pid")).trim());
        ProcessHandle server =
                ProcessHandle.of(pid)
                        .orElseThrow(() -> new IllegalStateException("no server process " + pid));
        server.destroyForcibly();
        server.onExit().join();
    }

    /**
     * Ends the server at once (SIGKILL), for a caller that is done with it and proves nothing by
     * its stop: about 3 s sooner than {@link #close()}'s ordinary stop. A process that cannot be
     * told to be this server's (its pid file outlived it) is left alone, and the server stopped the
     * ordinary way.
     */
    public void discard() throws IOException, InterruptedException {
        Path pidFile = WLP.resolve("usr/servers/.pid/" + name + ".pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        ProcessHandle server =
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()))
                        .filter(
                                p ->
                                        p.info().arguments().stream()
                                                .flatMap(java.util.Arrays::stream)
                                                .anyMatch(name::equals))
                        .orElse(null);
        if (server == null) {
            stop();
            return;
        }
        server.destroyForcibly();
        server.onExit().join();
        Files.delete(pidFile);
    }

    /**
     * Ends the server at once ({@link #discard()}): a test is done with a server it closes, and
     * proves nothing by its stop (a test about the stop calls {@link #stop()}); the next test that
     * names the server recreates its folder. About 3 s sooner per server than an ordinary stop.
     */
    @Override
    public void close() throws Exception {
        discard();
    }

    private void run(String command) throws IOException, InterruptedException {
        Process process =
                new ProcessBuilder(WLP.resolve("bin/server").toString(), command, name)
                        .redirectErrorStream(true)
                        .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server " + command + " " + name + " hung");
        }
        if (process.exitValue() != 0 && !"stop".equals(command)) {
            throw new IllegalStateException(
                    "server " + command + " " + name + " failed: " + output);
        }
    }
}
