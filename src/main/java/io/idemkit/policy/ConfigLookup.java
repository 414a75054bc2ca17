package io.idemkit.policy;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The configuration as the per-method policy reads it: a value by key, and the names of every key
 * (for the check of every per-method key, {@link PerMethodConfig#validate}). The policy needs no
 * more of MicroProfile Config, so that it can be tested over a plain map.
 */
public interface ConfigLookup {

    /**
     * @param key a key
     * @return its value as the configuration holds it (not stripped, possibly empty); empty when
     *     the key is not set
     */
    Optional<String> value(String key);

    /**
     * @return the names of every key the configuration holds
     */
    Iterable<String> names();

    /**
     * @param key a key
     * @return whether it is set to a non-empty value, as MicroProfile Config's {@code
     *     getOptionalValue} sees it
     */
    default boolean isSet(String key) {
        return value(key).filter(v -> !v.isEmpty()).isPresent();
    }

    /**
     * @param config a MicroProfile configuration
     * @return the lookup that reads it
     */
    static ConfigLookup of(Config config) {
        Objects.requireNonNull(config, "config");
        return new ConfigLookup() {
            @Override
            public Optional<String> value(String key) {
                return Optional.ofNullable(config.getConfigValue(key).getValue());
            }

            @Override
            public Iterable<String> names() {
                return config.getPropertyNames();
            }
        };
    }

    /**
     * @param values keys and values
     * @return the lookup that reads them
     */
    static ConfigLookup of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        return new ConfigLookup() {
            @Override
            public Optional<String> value(String key) {
                return Optional.ofNullable(copy.get(key));
            }

            @Override
            public Iterable<String> names() {
                return copy.keySet();
            }
        };
    }

    /**
     * @return the lookup of the application's configuration, the one of the calling thread's
     *     context class loader
     */
    static ConfigLookup current() {
        return of(ConfigProvider.getConfig());
    }
}
