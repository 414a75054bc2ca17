package io.idemkit.it;

import java.io.IOException;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server of a test's own, beside the one Arquillian manages, in the runtime of the failsafe
 * execution ({@code idemkit.it.runtime}), for the tests that must really stop or kill a server.
 */
interface OwnServer extends AutoCloseable {

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
}
