package io.idemkit.store.jdbc;

import io.idemkit.spi.IdempotencyStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Starts the JDBC store's scheduled purge when {@code idemkit.jdbc.purge-interval} asks for one
 * (C12): on the runtime's default managed scheduled executor where the container has one (the glue
 * hands it over), else on a daemon thread of the library's own. A runtime whose executor refuses
 * the schedule gets the library's own thread too: an optional API never fails the deployment. INFO
 * says which one runs it. The caller closes the schedule when the application stops.
 */
final class JdbcPurgeScheduling {

    private static final System.Logger LOG = System.getLogger(JdbcPurgeScheduling.class.getName());

    private JdbcPurgeScheduling() {}

    /**
     * @param store the JDBC store
     * @param interval {@code idemkit.jdbc.purge-interval}, zero for off
     * @param managed the runtime's default managed scheduled executor, or empty
     * @param managedName where the container found it, for the log
     * @return the running schedule, or empty when it is off
     */
    static Optional<PurgeSchedule> start(
            IdempotencyStore store,
            Duration interval,
            Optional<ScheduledExecutorService> managed,
            String managedName) {
        if (interval.isZero()) {
            return Optional.empty();
        }
        if (managed.isPresent()) {
            try {
                PurgeSchedule schedule = PurgeSchedule.on(managed.get(), store, interval);
                LOG.log(
                        Level.INFO,
                        "idemkit purges the JDBC store's expired rows every "
                                + interval
                                + " ("
                                + JdbcKeys.PURGE_INTERVAL
                                + ") on "
                                + managedName);
                return Optional.of(schedule);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.INFO,
                        "idemkit cannot schedule its JDBC store purge on "
                                + managedName
                                + " ("
                                + e.getClass().getName()
                                + "); it uses a thread of its own");
            }
        }
        PurgeSchedule schedule = PurgeSchedule.onOwnThread(store, interval);
        LOG.log(
                Level.INFO,
                "idemkit purges the JDBC store's expired rows every "
                        + interval
                        + " ("
                        + JdbcKeys.PURGE_INTERVAL
                        + ") on a daemon thread of its own");
        return Optional.of(schedule);
    }
}
