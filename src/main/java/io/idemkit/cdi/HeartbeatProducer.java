package io.idemkit.cdi;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.LeaseHeartbeat;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Produces the lease heartbeat of long method calls (contract C4.7). It beats on the container's
 * default {@code ManagedScheduledExecutorService} when there is one (Jakarta Concurrency, for
 * example Liberty's {@code concurrent-3.0} feature), so that the beats run on threads the server
 * manages; otherwise on one daemon thread of the library's own, stopped with the application.
 */
@ApplicationScoped
public class HeartbeatProducer {

    private static final System.Logger LOG = System.getLogger(HeartbeatProducer.class.getName());

    @Produces
    @Singleton
    LeaseHeartbeat heartbeat(IdemkitConfig config) {
        Optional<ScheduledExecutorService> managed = ManagedScheduler.lookUp();
        if (managed.isPresent()) {
            LOG.log(Level.DEBUG, "idemkit heartbeats on " + ManagedScheduler.JNDI_NAME);
            return new LeaseHeartbeat(config.heartbeatInterrupt(), managed.get());
        }
        LOG.log(Level.DEBUG, "idemkit heartbeats on a daemon thread of its own");
        return new LeaseHeartbeat(config.heartbeatInterrupt());
    }

    void close(@Disposes LeaseHeartbeat heartbeat) {
        heartbeat.close();
    }
}
