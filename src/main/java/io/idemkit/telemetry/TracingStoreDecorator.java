package io.idemkit.telemetry;

import io.idemkit.spi.IdempotencyStore;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Puts every store call in a span of its own ({@link TracedStore}) when the application has an
 * OpenTelemetry instance. Registered as a singleton by the extension only when the OpenTelemetry
 * API is visible.
 */
public class TracingStoreDecorator implements StoreDecorator {

    private final Tracer tracer;

    @Inject
    TracingStoreDecorator(Instance<OpenTelemetry> telemetry) {
        Optional<OpenTelemetry> resolved = Telemetry.resolve(telemetry);
        this.tracer = resolved.map(t -> t.getTracer(Telemetry.SCOPE)).orElse(null);
    }

    @Override
    public IdempotencyStore decorate(IdempotencyStore store) {
        return tracer == null ? store : new TracedStore(store, tracer);
    }
}
