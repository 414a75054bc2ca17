package io.idemkit.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.inject.Instance;
import java.lang.System.Logger.Level;
import java.util.Optional;

/** Where the OpenTelemetry instance comes from: the application's (or the runtime's) CDI bean. */
final class Telemetry {

    /** The instrumentation scope of every meter and tracer of the library. */
    static final String SCOPE = "io.idemkit";

    private static final System.Logger LOG = System.getLogger(Telemetry.class.getName());

    private Telemetry() {}

    /**
     * Whether the tracer is the API's no-op one, as a runtime whose SDK is off (MicroProfile
     * Telemetry's default, {@code otel.sdk.disabled=true}) hands out: its spans are never recorded,
     * so a store decorated with it would open and close spans for nothing on every call.
     */
    static boolean isNoop(Tracer tracer) {
        return tracer.getClass() == OpenTelemetry.noop().getTracer(SCOPE).getClass();
    }

    /** Whether the meter is the API's no-op one, whose instruments record nothing. */
    static boolean isNoop(Meter meter) {
        return meter.getClass() == OpenTelemetry.noop().getMeter(SCOPE).getClass();
    }

    static Optional<OpenTelemetry> resolve(Instance<OpenTelemetry> candidates) {
        if (candidates.isResolvable()) {
            return Optional.of(candidates.get());
        }
        LOG.log(
                Level.DEBUG,
                "idemkit: the OpenTelemetry API is present but there is no single OpenTelemetry"
                        + " bean (enable mpTelemetry, or produce one); no metrics or spans.");
        return Optional.empty();
    }
}
