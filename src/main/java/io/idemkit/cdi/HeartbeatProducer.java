package io.idemkit.cdi;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.LeaseHeartbeat;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Produces the lease heartbeat of long operations (contract C4.7), on daemon threads of the
 * library's own, created on first use and stopped with the application: one that only dispatches
 * beats and checks their deadlines, a few that run the renewals (so that one renewal stuck in a
 * store call holds up no other lease), and a few that tell the losses.
 *
 * <p>Not the container's {@code ManagedScheduledExecutorService}, though there is one: a lease
 * heartbeat must not queue behind the work it guards. Open Liberty runs managed tasks on its one
 * default executor, which message-driven beans' deliveries share; deliveries blocked in their
 * commits (a remote messaging engine that answers slowly) can hold every thread of it, and the
 * beats that should renew those very deliveries' leases then wait until the leases have run out
 * (seen in {@code TwoNodesMessagesIT}: no renewal for over 50 s on a node whose four executor
 * threads all waited on commits, and duplicates on the other node ran the keys again).
 */
@ApplicationScoped
public class HeartbeatProducer {

    @Produces
    @Singleton
    LeaseHeartbeat heartbeat(IdemkitConfig config) {
        return new LeaseHeartbeat(config.heartbeatInterrupt());
    }

    void close(@Disposes LeaseHeartbeat heartbeat) {
        heartbeat.close();
    }
}
