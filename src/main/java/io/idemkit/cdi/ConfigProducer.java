package io.idemkit.cdi;

import io.idemkit.config.IdemkitConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Makes the configuration validated at deployment injectable. */
@ApplicationScoped
public class ConfigProducer {

    @Produces
    @Singleton
    IdemkitConfig config(IdemkitExtension extension) {
        return extension.config();
    }
}
