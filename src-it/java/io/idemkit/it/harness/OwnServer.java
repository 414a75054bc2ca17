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
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server of a test's own, beside the one Arquillian manages, in the runtime of the failsafe
 * execution ({@link ItRuntime#current()}), for the tests that must really stop or kill a server.
 */
public interface OwnServer extends AutoCloseable {

    /**
     * @param name the server's name, unique among the tests
     * @param war the application, deployed when the server starts
     * @return a server of the execution's runtime, on ports of {@link TestPorts}, not started
     */
    static OwnServer of(String name, WebArchive war) throws IOException {
        return ItRuntime.current().ownServer(name, war);
    }

    /**
     * @return the application's root, {@code http://host:port/<war name>/}; after the first {@link
     *     #start} it may differ from before (a server whose port was taken starts again on others)
     */
    URI application(WebArchive war);

    /**
     * Starts the server and waits until {@code probe} answers 200. At its first start, a server
     * whose port another program took after {@link TestPorts} checked it is started once more on
     * new ports, and says so; {@code probe} follows it there.
     */
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
     * @param portTaken what the server said when it could not bind one of its ports, or {@code
     *     null} while it has not
     * @throws PortTaken when {@code portTaken} gives a line
     */
    static void awaitAnswer(URI probe, Process process, Path log, Callable<String> portTaken) {
        HttpClient client = HttpClient.newHttpClient();
        Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                // Refused connections while it starts; anything else ends the wait at once.
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(
                        () -> {
                            // Bounded: a port someone else holds may take the connection and
                            // never answer. The log and the process are still read while the
                            // probe waits, so that a port taken is noticed at once, not when
                            // the probe gives up.
                            CompletableFuture<HttpResponse<Void>> answer =
                                    client.sendAsync(
                                            HttpRequest.newBuilder(probe)
                                                    .timeout(Duration.ofSeconds(10))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding());
                            try {
                                while (true) {
                                    failIfDown(process, log, portTaken);
                                    try {
                                        return answer.get(250, TimeUnit.MILLISECONDS).statusCode()
                                                == 200;
                                    } catch (TimeoutException stillWaiting) {
                                        // Read the log again.
                                    } catch (ExecutionException e) {
                                        throw e.getCause() instanceof Exception cause ? cause : e;
                                    }
                                }
                            } finally {
                                answer.cancel(true);
                            }
                        });
    }

    /**
     * @throws PortTaken when {@code portTaken} gives a line
     * @throws IllegalStateException when {@code process} has ended
     */
    private static void failIfDown(Process process, Path log, Callable<String> portTaken)
            throws Exception {
        boolean exited = process != null && !process.isAlive();
        String taken = portTaken.call();
        if (taken != null) {
            throw new PortTaken(taken);
        }
        if (exited) {
            throw new IllegalStateException("the server exited: see " + log);
        }
    }

    /**
     * @param log a server's log file
     * @param from where this start's lines begin in it
     * @return the first line from {@code from} on that says a port was in use, or {@code null}
     */
    static String bindFailure(Path log, long from) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        String text = Files.readString(log);
        return text.substring((int) Math.min(from, text.length()))
                .lines()
                .filter(line -> line.contains("Address already in use"))
                .findFirst()
                .orElse(null);
    }

    /**
     * @return {@code uri} on port {@code to} if it was on port {@code from}, else {@code uri}
     */
    static URI moved(URI uri, int from, int to) {
        if (uri.getPort() != from) {
            return uri;
        }
        try {
            return new URI(
                    uri.getScheme(),
                    uri.getUserInfo(),
                    uri.getHost(),
                    to,
                    uri.getPath(),
                    uri.getQuery(),
                    uri.getFragment());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A server could not bind a port of its own: another program took it after the check. */
    final class PortTaken extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTaken(String line) {
            super(line);
        }
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
