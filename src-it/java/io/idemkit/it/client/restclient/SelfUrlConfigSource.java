package io.idemkit.it.client.restclient;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Gives the configured Rest Client its URL, {@code configured-charges/mp-rest/url}: the test
 * application calls its own server, whose port only the running request knows.
 */
public class SelfUrlConfigSource implements ConfigSource {

    static final AtomicReference<String> SELF = new AtomicReference<>();

    private static final String KEY = ConfiguredChargesClient.CONFIG_KEY + "/mp-rest/url";

    public SelfUrlConfigSource() {}

    @Override
    public Set<String> getPropertyNames() {
        return SELF.get() == null ? Set.of() : Set.of(KEY);
    }

    @Override
    public Map<String, String> getProperties() {
        return SELF.get() == null ? Map.of() : Map.of(KEY, SELF.get());
    }

    @Override
    public String getValue(String propertyName) {
        return KEY.equals(propertyName) ? SELF.get() : null;
    }

    @Override
    public String getName() {
        return "idemkit-it-self-url";
    }

    @Override
    public int getOrdinal() {
        return 500;
    }
}
