package io.idemkit.store.sample;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreResources;
import java.util.Optional;
import java.util.Set;

/**
 * A store's wing as the next bundled store would add it: this package, and no line of the library
 * outside it (its keys, its name, how to choose it). {@code StoreWingSeamTest} hands it to the
 * selection and the configuration reading beside the real factories.
 */
public final class SampleStoreFactory implements StoreFactory {

    /** The sample store's one key. */
    public static final String ENDPOINT = ConfigKeys.PREFIX + "sample.endpoint";

    private String endpoint;

    @Override
    public String name() {
        return "sample";
    }

    @Override
    public Set<String> keys() {
        return Set.of(ENDPOINT);
    }

    @Override
    public Optional<String> howToChoose() {
        return Optional.of("set " + ENDPOINT);
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.empty();
    }

    @Override
    public void read(ConfigValues values) {
        endpoint = values.text(ENDPOINT).orElse(null);
    }

    @Override
    public boolean pickedByAuto(StoreResources resources) {
        return endpoint != null;
    }

    @Override
    public Optional<String> inTransactionProblem() {
        return Optional.of("the sample store keeps no transaction");
    }

    @Override
    public IdempotencyStore store(StoreResources resources, IdemkitConfig config) {
        throw new UnsupportedOperationException("the sample store is never opened");
    }
}
