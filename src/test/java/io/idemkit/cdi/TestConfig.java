package io.idemkit.cdi;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/** Registers a MicroProfile Config with exactly the given properties for one test. */
public final class TestConfig implements AutoCloseable {

    private final SmallRyeConfig config;
    private final ClassLoader loader;

    private TestConfig(SmallRyeConfig config, ClassLoader loader) {
        this.config = config;
        this.loader = loader;
    }

    /**
     * @param properties the whole configuration (no system properties, no environment)
     * @return the registered configuration, for the thread's context class loader
     */
    public static TestConfig of(Map<String, String> properties) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        SmallRyeConfig config =
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        try {
            resolver.releaseConfig(resolver.getConfig(loader));
        } catch (IllegalStateException e) {
            // nothing registered yet
        }
        resolver.registerConfig(config, loader);
        return new TestConfig(config, loader);
    }

    /** Releases the configuration, so the next test registers its own. */
    @Override
    public void close() {
        ConfigProviderResolver.instance().releaseConfig(config);
    }

    ClassLoader loader() {
        return loader;
    }
}
