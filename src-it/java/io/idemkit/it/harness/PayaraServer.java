package io.idemkit.it.harness;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A Payara Micro of the test's own, beside the one Arquillian manages: the jar the build copied
 * ({@code payara.micro.jar}), run as this JVM's child with the IT configuration (the same pre- and
 * post-boot commands: HTTP on loopback, no data grid, no cluster), on a port of {@link TestPorts},
 * in a root directory of its own under {@code target/payara/servers}; stopped with SIGTERM (Payara
 * Micro's shutdown hook) and killed with SIGKILL.
 */
public final class PayaraServer implements OwnServer {

    private static final Path JAR =
            Path.of(System.getProperty("payara.micro.jar", "target/payara/payara-micro.jar"))
                    .toAbsolutePath();

    private final Path root;
    private final Path war;
    private final String name;
    private int httpPort = TestPorts.next();
    private boolean started;
    private Process server;

    /**
     * Creates (or recreates) the server's directory, with {@code war} to deploy.
     *
     * @param name the server's name
     * @param war the application
     */
    PayaraServer(String name, WebArchive war) throws IOException {
        this.name = name;
        this.root = JAR.getParent().resolve("servers").resolve(name);
        OwnServer.deleteTree(root);
        Files.createDirectories(root);
        this.war = root.resolve(war.getName());
        war.as(ZipExporter.class).exportTo(this.war.toFile());
    }

    @Override
    public URI application(WebArchive war) {
        String context = war.getName().replaceFirst("\\.war$", "");
        return URI.create("http://127.0.0.1:" + httpPort + "/" + context + "/");
    }

    /**
     * Starts the server on a root directory emptied first: Payara Micro keeps the applications it
     * deployed in its root directory's domain and deploys them again beside {@code --deploy} on a
     * restart, which left the restarted application answering 404. A restart here is a fresh
     * container, as a replacement pod would be; what must survive a crash lives in the database.
     */
    @Override
    public void start(URI probe) throws IOException, InterruptedException {
        try {
            startOnce(probe);
        } catch (OwnServer.PortTaken e) {
            if (started) {
                throw e;
            }
            TestPorts.retrying("Payara Micro " + name, httpPort, e.getMessage());
            kill();
            int was = httpPort;
            httpPort = TestPorts.next();
            startOnce(OwnServer.moved(probe, was, httpPort));
        }
        started = true;
    }

    private void startOnce(URI probe) throws IOException, InterruptedException {
        Path console = root.resolve("console.log");
        long from = Files.exists(console) ? Files.size(console) : 0;
        OwnServer.deleteTree(root.resolve("root"));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar"));
        command.add(JAR.toString());
        command.addAll(
                List.of(
                        "--nocluster",
                        "--port",
                        String.valueOf(httpPort),
                        "--prebootcommandfile",
                        Path.of("src-it/payara/preboot.asadmin").toAbsolutePath().toString(),
                        "--postbootcommandfile",
                        Path.of("src-it/payara/postboot.asadmin").toAbsolutePath().toString(),
                        "--rootdir",
                        root.resolve("root").toString(),
                        "--deploy",
                        war.toString()));
        server =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                        .start();
        OwnServer.awaitAnswer(probe, server, console, () -> OwnServer.bindFailure(console, from));
    }

    @Override
    public void stop() throws IOException, InterruptedException {
        server.destroy();
        if (!server.waitFor(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Payara Micro " + root + " did not stop");
        }
    }

    @Override
    public void kill() throws IOException {
        server.destroyForcibly();
        server.onExit().join();
    }

    @Override
    public void close() throws Exception {
        if (server != null && server.isAlive()) {
            stop();
        }
    }
}
