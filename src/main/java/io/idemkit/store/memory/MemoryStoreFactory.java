package io.idemkit.store.memory;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.StoreKind;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreResources;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory store's wing ({@code idemkit.store=memory}, and {@code auto}'s fallback): its keys
 * ({@code idemkit.memory.*}) are read with the engine's, since they are checked against {@code
 * idemkit.max-body-bytes}; it needs no driver, and warns, outside the {@code dev} and {@code test}
 * profiles, that its records live in one JVM only.
 */
public final class MemoryStoreFactory implements StoreFactory {

    private static final System.Logger LOG = System.getLogger(MemoryStoreFactory.class.getName());
    private static final Set<String> DEVELOPMENT_PROFILES = Set.of("dev", "test");

    private String profile = "";

    /** For the service loader. */
    public MemoryStoreFactory() {}

    @Override
    public StoreKind kind() {
        return StoreKind.MEMORY;
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.empty();
    }

    @Override
    public void read(ConfigValues values) {
        profile = values.text("mp.config.profile").orElse("");
    }

    @Override
    public Optional<String> inTransactionProblem() {
        return Optional.of(
                "the store is in memory, and only the JDBC store keeps its records in the business"
                        + " database");
    }

    @Override
    public IdempotencyStore store(StoreResources resources, IdemkitConfig config) {
        warnAboutMemory(config);
        return new InMemoryIdempotencyStore(
                Clock.systemUTC(),
                config.memoryMaxSize(),
                config.memoryMaxBytes(),
                config.memorySweepInterval());
    }

    private void warnAboutMemory(IdemkitConfig config) {
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
