package io.idemkit.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
    private final int httpPort;
    private final Path dir;

    /**
     * Creates (or recreates) the server, with {@code war} in its dropins folder.
     *
     * @param name the server's name
     * @param httpPort its HTTP port; the HTTPS port is the next one
     * @param war the application
     */
    /**
     * @return a TCP port that was free a moment ago, for a server of a test's own
     */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public LibertyServer(String name, int httpPort, WebArchive war) throws IOException {
        this(name, httpPort, war, "");
    }

    /**
     * Creates (or recreates) the server, with {@code war} in its dropins folder and {@code
     * overrides} (the body of a {@code <server>} element) as a configuration drop-in.
     */
    public LibertyServer(String name, int httpPort, WebArchive war, String overrides)
            throws IOException {
        this.name = name;
        this.httpPort = httpPort;
        this.dir = WLP.resolve("usr/servers").resolve(name);
        OwnServer.deleteTree(dir);
        Files.createDirectories(dir.resolve("dropins"));
        Files.createDirectories(dir.resolve("configDropins/overrides"));
        Files.copy(CONFIG, dir.resolve("server.xml"));
        Files.writeString(
                dir.resolve("configDropins/overrides/test-server.xml"),
                "<server>\n"
                        + "  <variable name=\"http.port\" value=\""
                        + httpPort
                        + "\"/>\n"
                        + "  <variable name=\"https.port\" value=\""
                        + (httpPort + 1)
                        + "\"/>\n"
                        // Deployed by copying a file, not by Arquillian's MBean.
                        + "  <applicationMonitor updateTrigger=\"polled\"/>\n"
                        + "</server>\n");
        if (!overrides.isBlank()) {
            Files.writeString(
                    dir.resolve("configDropins/overrides/test-overrides.xml"),
                    "<server>\n" + overrides + "\n</server>\n");
        }
        Files.writeString(
                dir.resolve("jvm.options"), "-XX:TieredStopAtLevel=1\n-XX:+UseSerialGC\n");
        war.as(ZipExporter.class).exportTo(dir.resolve("dropins").resolve(war.getName()).toFile());
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
     * @return the line in which it says so ({@code CWWKZ0002E}), with the reason
     */
    public String awaitRefusal(String app) {
        Pattern line = Pattern.compile("CWWKZ0002E[^\\n]*\\b" + app + "\\b[^\\n]*");
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            Matcher m = line.matcher(messagesLog());
                            return m.find() ? m.group() : null;
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

    /** Starts the server and waits until {@code probe} answers. */
    @Override
    public void start(URI probe) throws IOException, InterruptedException {
        run("start");
        OwnServer.awaitAnswer(probe, null, dir.resolve("logs/messages.log"));
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

    @Override
    public void close() throws Exception {
        if (Files.exists(WLP.resolve("usr/servers/.pid/" + name + ".pid"))) {
            stop();
        }
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
