package io.idemkit.it.harness;

import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * An Open Liberty server of a test's own, running one application, whose server-defined data
 * sources reach a database started for it. Closing it stops both.
 *
 * @param database the database server
 * @param server the application server
 * @param app the application's root
 * @param <D> the kind of database server
 */
public record DatabaseOnLiberty<D extends AutoCloseable>(D database, LibertyServer server, URI app)
        implements AutoCloseable {

    /**
     * @param database a started database server, closed here if the application server fails to
     *     start
     * @param dataSources the {@code <server>} element's body that defines the data sources on it
     * @param name the Liberty server's name, unique among the tests
     * @param war the application
     * @param moreConfig more of the {@code <server>} element's body, or an empty string
     * @param probe a path of the application that answers 200 once it runs
     * @param others more applications of the server
     * @return the servers, started
     */
    public static <D extends AutoCloseable> DatabaseOnLiberty<D> start(
            D database,
            String dataSources,
            String name,
            WebArchive war,
            String moreConfig,
            String probe,
            WebArchive... others)
            throws Exception {
        LibertyServer server = null;
        try {
            server = new LibertyServer(name, war, dataSources + moreConfig);
            for (WebArchive other : others) {
                server.addApplication(other);
            }
            server.start(server.application(war).resolve(probe));
            return new DatabaseOnLiberty<>(database, server, server.application(war));
        } catch (Exception | Error e) {
            if (server != null) {
                server.close();
            }
            database.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            server.close();
        } finally {
            database.close();
        }
    }
}
