package io.idemkit.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import jakarta.enterprise.inject.Instance;
import java.lang.System.Logger.Level;
import java.util.Optional;

/** Where the OpenTelemetry instance comes from: the application's (or the runtime's) CDI bean. */
final class Telemetry {

    /** The instrumentation scope of every meter and tracer of the library. */
    static final String SCOPE = "io.idemkit";

    private static final System.Logger LOG = System.getLogger(Telemetry.class.getName());

    private Telemetry() {}

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
