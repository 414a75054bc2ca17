package io.idemkit.telemetry;

import io.idemkit.core.StoreDecorator;
import io.idemkit.spi.IdempotencyStore;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Instance;
import java.util.Optional;

/**
 * Puts every store call in a span of its own ({@link TracedStore}) when the application has an
 * OpenTelemetry instance whose tracer records (not the API's no-op tracer, which a runtime with its
 * SDK off provides: wrapping the store then cost a few per cent of a request for nothing). Not a
 * bean class: the extension adds it as a synthetic {@code @Dependent} bean of type {@link
 * StoreDecorator} only when the OpenTelemetry API is visible.
 */
public class TracingStoreDecorator implements StoreDecorator {

    private final Tracer tracer;

    /**
     * @param telemetry the application's (or the runtime's) OpenTelemetry bean, if there is one
     */
    public TracingStoreDecorator(Instance<OpenTelemetry> telemetry) {
        Optional<OpenTelemetry> resolved = Telemetry.resolve(telemetry);
        this.tracer =
                resolved.map(t -> t.getTracer(Telemetry.SCOPE))
                        .filter(t -> !Telemetry.isNoop(t))
                        .orElse(null);
    }

    @Override
    public IdempotencyStore decorate(IdempotencyStore store) {
        return tracer == null ? store : new TracedStore(store, tracer);
    }
}
