package io.idemkit.store.memory;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreResources;
import io.idemkit.store.StoreSelection;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory store's wing ({@code idemkit.store=memory}, and {@code auto}'s fallback, which
 * {@link io.idemkit.store.StoreSelection} warns about): its keys ({@code idemkit.memory.*}), their
 * check against {@code idemkit.max-body-bytes} when it is the store used; it needs no driver, and
 * warns, outside the {@code dev} and {@code test} profiles, that its records live in one JVM only.
 */
public final class MemoryStoreFactory implements StoreFactory {

    private static final System.Logger LOG = System.getLogger(MemoryStoreFactory.class.getName());
    private static final Set<String> DEVELOPMENT_PROFILES = Set.of("dev", "test");

    private String profile = "";
    private MemoryStoreSettings settings;

    /** For the service loader. */
    public MemoryStoreFactory() {}

    @Override
    public String name() {
        return StoreSelection.MEMORY;
    }

    @Override
    public Set<String> keys() {
        return MemoryKeys.all();
    }

    @Override
    public Optional<String> howToChoose() {
        return Optional.empty();
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.empty();
    }

    @Override
    public void read(ConfigValues values) {
        profile = values.text("mp.config.profile").orElse("");
        settings = MemoryStoreSettings.read(values);
    }

    /**
     * @return the settings {@link #read} found
     */
    public MemoryStoreSettings settings() {
        return settings;
    }

    @Override
    public List<String> open(StoreResources resources, IdemkitConfig config) {
        return settings.problems(config.maxBodyBytes());
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
                settings.maxSize(),
                settings.maxBytes(),
                settings.sweepInterval());
    }

    /** When {@code auto} fell back here, the selection has warned already. */
    private void warnAboutMemory(IdemkitConfig config) {
        if (!name().equals(config.store())) {
            return;
        }
        if (DEVELOPMENT_PROFILES.contains(profile)) {
            LOG.log(Level.INFO, "idemkit uses the in-memory store (profile " + profile + ").");
            return;
        }
        LOG.log(
                Level.WARNING,
                "idemkit uses the IN-MEMORY store ("
                        + ConfigKeys.STORE
                        + "=memory): records live in this JVM only, so duplicates that reach"
                        + " another instance, or arrive after a restart, run again. Choose a shared"
                        + " store for production.");
    }
}
