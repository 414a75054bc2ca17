package io.idemkit.it.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server of a test's own, beside the one Arquillian manages, in the runtime of the failsafe
 * execution ({@code idemkit.it.runtime}), for the tests that must really stop or kill a server.
 */
public interface OwnServer extends AutoCloseable {

    /**
     * @param name the server's name, unique among the tests
     * @param war the application, deployed when the server starts
     * @return a server of the execution's runtime, on free ports, not started
     */
    static OwnServer of(String name, WebArchive war) throws IOException {
        String runtime = System.getProperty("idemkit.it.runtime", "liberty");
        return switch (runtime) {
            case "liberty" -> new LibertyServer(name, LibertyServer.freePort(), war);
            case "wildfly" -> new WildFlyServer(name, war);
            case "payara" -> new PayaraServer(name, war);
            default ->
                    throw new IllegalStateException("no server of its own on runtime " + runtime);
        };
    }

    /**
     * @return the application's root, {@code http://host:port/<war name>/}
     */
    URI application(WebArchive war);

    /** Starts the server and waits until {@code probe} answers 200. */
    void start(URI probe) throws IOException, InterruptedException;

    /** Stops the server the ordinary way. */
    void stop() throws IOException, InterruptedException;

    /** Kills the server's JVM with SIGKILL: no shutdown hook, no request finishes. */
    void kill() throws IOException;

    /**
     * Waits up to two minutes until {@code probe} answers 200.
     *
     * @param probe a URL of the application
     * @param process the server's process, or {@code null} when it is not this JVM's child; one
     *     that ends fails the wait at once
     * @param log where the server writes what went wrong
     */
    static void awaitAnswer(URI probe, Process process, Path log) {
        HttpClient client = HttpClient.newHttpClient();
        Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .ignoreExceptions()
                .until(
                        () -> {
                            if (process != null && !process.isAlive()) {
                                throw new IllegalStateException("the server exited: see " + log);
                            }
                            return client.send(
                                                    HttpRequest.newBuilder(probe).build(),
                                                    HttpResponse.BodyHandlers.discarding())
                                            .statusCode()
                                    == 200;
                        });
    }

    /** Deletes {@code dir} and everything below it, if it is there. */
    static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
