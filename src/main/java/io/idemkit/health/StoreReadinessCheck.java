package io.idemkit.health;

import io.idemkit.cdi.StoreInstance;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness check {@code idemkit-store}: {@code UP} while the store can serve claims, {@code
 * DOWN} during an outage (or when the in-memory store is full), with the store's name and, for
 * MongoDB, the measured server-clock offset. It is a readiness check only: a store outage takes the
 * instance out of the load balancer, and never makes the platform restart a healthy process.
 *
 * <p>Registered as a singleton by the extension only when the MicroProfile Health API is visible;
 * it has no bean-defining annotation so that CDI never loads it otherwise.
 */
@Readiness
public class StoreReadinessCheck implements HealthCheck {

    /** The check's name in {@code /health/ready}. */
    public static final String NAME = "idemkit-store";

    private final IdempotencyStore store;
    private final BeanManager beans;

    @Inject
    StoreReadinessCheck(IdempotencyStore store, BeanManager beans) {
        this.store = store;
        this.beans = beans;
    }

    @Override
    public HealthCheckResponse call() {
        StoreProbe.Status status = StoreProbe.probe(StoreInstance.of(store, beans));
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME).status(status.up());
        for (Map.Entry<String, Object> entry : status.data().entrySet()) {
            Object value = entry.getValue();
            if (value instanceof Long || value instanceof Integer) {
                response.withData(entry.getKey(), ((Number) value).longValue());
            } else {
                response.withData(entry.getKey(), String.valueOf(value));
            }
        }
        return response.build();
    }
}
