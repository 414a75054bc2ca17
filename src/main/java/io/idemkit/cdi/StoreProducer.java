package io.idemkit.cdi;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.StoreKind;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Produces the application's {@link IdempotencyStore}, chosen by {@code idemkit.store}. An
 * application that brings its own store declares it as an enabled alternative
 * ({@code @Alternative @Priority(...)}), which takes precedence over this producer.
 */
@ApplicationScoped
public class StoreProducer {

    private static final System.Logger LOG = System.getLogger(StoreProducer.class.getName());
    private static final Set<String> DEVELOPMENT_PROFILES = Set.of("dev", "test");

    @Produces
    @ApplicationScoped
    IdempotencyStore store(IdemkitConfig config) {
        if (config.store() == StoreKind.MEMORY || config.mongo().connectionString().isEmpty()) {
            warnAboutMemory(config);
            return new InMemoryIdempotencyStore(
                    Clock.systemUTC(), config.memoryMaxSize(), config.memorySweepInterval());
        }
        throw new IllegalStateException("the MongoDB store is not wired yet");
    }

    void close(@Disposes IdempotencyStore store) {
        store.close();
    }

    private static void warnAboutMemory(IdemkitConfig config) {
        String profile =
                ConfigProvider.getConfig()
                        .getOptionalValue("mp.config.profile", String.class)
                        .orElse("");
        if (config.store() == StoreKind.MEMORY && DEVELOPMENT_PROFILES.contains(profile)) {
            LOG.log(Level.INFO, "idemkit uses the in-memory store (profile " + profile + ").");
            return;
        }
        LOG.log(
                Level.WARNING,
                "idemkit uses the IN-MEMORY store"
                        + (config.store() == StoreKind.MEMORY
                                ? " (idemkit.store=memory)"
                                : " because " + ConfigKeys.MONGO_URI + " is not set")
                        + ": records live in this JVM only, so duplicates that reach another"
                        + " instance, or arrive after a restart, run again. Set "
                        + ConfigKeys.MONGO_URI
                        + " for production.");
    }
}
