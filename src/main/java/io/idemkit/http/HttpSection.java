package io.idemkit.http;

import io.idemkit.config.ConfigSection;
import io.idemkit.config.ConfigValues;
import java.util.Set;

/**
 * The HTTP surface's keys ({@link HttpKeys}), read and checked in the deployment's one reading; the
 * glue hands the surface what was read ({@link #settings()}). Listed in {@code
 * META-INF/services/io.idemkit.config.ConfigSection}.
 */
public final class HttpSection implements ConfigSection {

    private volatile HttpSettings settings;

    /** For the service loader. */
    public HttpSection() {}

    @Override
    public Set<String> keys() {
        return HttpKeys.all();
    }

    @Override
    public void read(ConfigValues values) {
        settings = HttpSettings.read(values);
    }

    /**
     * @return the settings read at deployment
     * @throws IllegalStateException before the deployment's reading
     */
    public HttpSettings settings() {
        HttpSettings read = settings;
        if (read == null) {
            throw new IllegalStateException("idemkit's HTTP settings are read at deployment");
        }
        return read;
    }
}
