package io.idemkit.testsupport;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * A lease heartbeat closed already, as at undeploy, which refuses to start a beat, beside an
 * in-memory store a test can read.
 */
@Alternative
@Priority(100)
@ApplicationScoped
public class ClosedHeartbeat {
    @Produces
    @ApplicationScoped
    IdempotencyStore store() {
        return new InMemoryIdempotencyStore(Clock.systemUTC(), 100);
    }

    @Produces
    @Singleton
    LeaseHeartbeat heartbeat(IdemkitConfig config) {
        LeaseHeartbeat heartbeat = new LeaseHeartbeat(config.heartbeatInterrupt());
        heartbeat.close();
        return heartbeat;
    }
}
