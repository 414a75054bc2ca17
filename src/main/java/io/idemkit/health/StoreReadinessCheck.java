package io.idemkit.health;

import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * The readiness check {@code idemkit-store}: {@code UP} while the store can serve claims, {@code
 * DOWN} during an outage (a full in-memory store is not one, C10.5), with the store's name and what
 * its {@link IdempotencyStore#health()} reports (for MongoDB, the measured server-clock offset). It
 * is a readiness check only: a store outage takes the instance out of the load balancer, and never
 * makes the platform restart a healthy process.
 *
 * <p>Not a bean class: the extension adds it as a synthetic {@code @Dependent} bean of type {@link
 * HealthCheck} with the qualifier {@code @Readiness} (which is what every MicroProfile Health
 * implementation looks for), and only when the Health API is visible, so that CDI never loads it
 * otherwise. It injects nothing: the store comes from the library's own startup bean, which sees it
 * on every runtime, while a synthetic bean may land in a bean archive of its own that does not (as
 * on Payara). Until the application has started it reports {@code DOWN}.
 */
public class StoreReadinessCheck implements HealthCheck {

    /** The check's name in {@code /health/ready}. */
    public static final String NAME = "idemkit-store";

    private final Supplier<Optional<IdempotencyStore>> store;

    /**
     * @param store the application's store object once the application has started, empty before
     */
    public StoreReadinessCheck(Supplier<Optional<IdempotencyStore>> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public HealthCheckResponse call() {
        Optional<IdempotencyStore> started = store.get();
        if (started.isEmpty()) {
            return HealthCheckResponse.named(NAME)
                    .down()
                    .withData("error", "idemkit has not started yet")
                    .build();
        }
        StoreHealth status = StoreProbe.probe(started.get());
        HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME).status(status.up());
        for (Map.Entry<String, Object> entry : status.details().entrySet()) {
            Object value = entry.getValue();
            if (value instanceof Long number) {
                response.withData(entry.getKey(), number);
            } else if (value instanceof Boolean flag) {
                response.withData(entry.getKey(), flag);
            } else {
                response.withData(entry.getKey(), String.valueOf(value));
            }
        }
        return response.build();
    }
}
