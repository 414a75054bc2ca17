package io.idemkit.cdi;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.http.HttpSection;
import io.idemkit.http.HttpSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;

/** Makes the configuration validated at deployment, and the wings' settings, injectable. */
@ApplicationScoped
public class ConfigProducer {

    /**
     * {@code @Dependent}, not {@code @Singleton}: the extension already holds the one instance, and
     * a pseudo-scope context need not be active when another extension first uses the store (a
     * health runtime, during {@code AfterDeploymentValidation}): TomEE starts its
     * {@code @Singleton} context only after the deployment. The record cannot be
     * {@code @ApplicationScoped} (it is final, so it cannot have a client proxy).
     */
    @Produces
    @Dependent
    IdemkitConfig config(IdemkitExtension extension) {
        return extension.config();
    }

    /**
     * The HTTP surface's settings, as its section read them at deployment; {@code @Dependent} for
     * the reasons above.
     */
    @Produces
    @Dependent
    HttpSettings httpSettings(IdemkitExtension extension) {
        return extension.section(HttpSection.class).settings();
    }
}
