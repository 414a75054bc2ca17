package io.idemkit.cdi;

import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The runtime's default {@code ManagedScheduledExecutorService} (Jakarta Concurrency, for example
 * Liberty's {@code concurrent-3.0} feature), on which the library's own periodic work runs where
 * there is one, so that it runs on threads the server manages. A runtime without it, or without
 * JNDI, answers empty, and never fails the deployment: the caller runs on a thread of its own.
 */
final class ManagedScheduler {

    /** Where Jakarta EE binds the default managed scheduled executor. */
    static final String JNDI_NAME = "java:comp/DefaultManagedScheduledExecutorService";

    private ManagedScheduler() {}

    /**
     * @return the runtime's default managed scheduled executor, or empty
     */
    static Optional<ScheduledExecutorService> lookUp() {
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            return found instanceof ScheduledExecutorService scheduler
                    ? Optional.of(scheduler)
                    : Optional.empty();
        } catch (NamingException | RuntimeException e) {
            // No JNDI, or no Jakarta Concurrency: the caller's own thread serves.
            return Optional.empty();
        }
    }
}
