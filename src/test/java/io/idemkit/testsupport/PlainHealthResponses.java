package io.idemkit.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.spi.HealthCheckResponseProvider;

/**
 * The response builder a MicroProfile Health runtime provides, for tests outside one: it keeps
 * exactly what the check put in.
 */
public final class PlainHealthResponses implements HealthCheckResponseProvider {

    /** Makes {@code HealthCheckResponse.named(...)} work in this JVM. */
    public static void install() {
        HealthCheckResponse.setResponseProvider(new PlainHealthResponses());
    }

    @Override
    public HealthCheckResponseBuilder createResponseBuilder() {
        return new Builder();
    }

    private static final class Builder extends HealthCheckResponseBuilder {
        private final Map<String, Object> data = new LinkedHashMap<>();
        private String name;
        private HealthCheckResponse.Status status = HealthCheckResponse.Status.DOWN;

        @Override
        public HealthCheckResponseBuilder name(String name) {
            this.name = name;
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, String value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, long value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder withData(String key, boolean value) {
            data.put(key, value);
            return this;
        }

        @Override
        public HealthCheckResponseBuilder up() {
            return status(true);
        }

        @Override
        public HealthCheckResponseBuilder down() {
            return status(false);
        }

        @Override
        public HealthCheckResponseBuilder status(boolean up) {
            status = up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN;
            return this;
        }

        @Override
        public HealthCheckResponse build() {
            return new HealthCheckResponse(
                    name,
                    status,
                    data.isEmpty() ? Optional.empty() : Optional.of(Map.copyOf(data)));
        }
    }
}
