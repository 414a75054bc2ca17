package io.idemkit.store.mongo;

import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreLease;
import io.idemkit.store.StoreResources;
import io.idemkit.store.StoreResources.Count;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The MongoDB store's wing ({@code idemkit.store=mongo}, or {@code auto} with {@code
 * idemkit.mongo.uri} or the application's one {@code MongoDatabase} or {@code MongoClient} bean):
 * its keys ({@code idemkit.mongo.*}), its lease rule ({@link MongoLeaseRule}, C9) and its
 * deployment problems. This class names no type of the MongoDB driver, so that it loads in an
 * application without the driver; what needs the driver is in {@link MongoStoreOpening}, reached
 * only when the driver is there.
 */
public final class MongoStoreFactory implements StoreFactory {

    /** The application's bean type the store may be opened on, first choice. */
    static final String DATABASE = "com.mongodb.client.MongoDatabase";

    /** The application's bean type the store may be opened on, second choice. */
    static final String CLIENT = "com.mongodb.client.MongoClient";

    private static final StoreDriver DRIVER =
            new StoreDriver(CLIENT, "org.mongodb:mongodb-driver-sync", "the MongoDB driver");

    private MongoStoreSettings settings;

    /** For the service loader. */
    public MongoStoreFactory() {}

    @Override
    public String name() {
        return "mongo";
    }

    @Override
    public Set<String> keys() {
        return MongoKeys.all();
    }

    @Override
    public Optional<String> howToChoose() {
        return Optional.of(
                "set " + MongoKeys.URI + " (or give the application one MongoClient bean)");
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.of(DRIVER);
    }

    @Override
    public Set<String> beanTypes() {
        return Set.of(DATABASE, CLIENT);
    }

    @Override
    public boolean askedForByConfiguration(ConfigValues values) {
        return values.text(MongoKeys.URI).isPresent();
    }

    @Override
    public void read(ConfigValues values) {
        settings = MongoSettingsReader.read(values);
    }

    @Override
    public boolean pickedByAuto(StoreResources resources) {
        return settings.uri() != null
                || resources.count(DATABASE) == Count.ONE
                || resources.count(CLIENT) == Count.ONE;
    }

    @Override
    public Optional<String> passedOver(StoreResources resources) {
        return several(resources)
                ? Optional.of(
                        "idemkit found several MongoClient or MongoDatabase beans and cannot"
                                + " tell which to use; set "
                                + MongoKeys.URI
                                + " to choose.")
                : Optional.empty();
    }

    @Override
    public Optional<String> unavailable(StoreResources resources) {
        if (pickedByAuto(resources)) {
            return Optional.empty();
        }
        return Optional.of(
                several(resources)
                        ? "idemkit.store=mongo, but there are several MongoClient or MongoDatabase"
                                + " beans and no "
                                + MongoKeys.URI
                                + ": set it to choose."
                        : "idemkit.store=mongo needs "
                                + MongoKeys.URI
                                + ", or a MongoClient or MongoDatabase bean; none is there.");
    }

    private static boolean several(StoreResources resources) {
        return resources.count(DATABASE) == Count.SEVERAL
                || resources.count(CLIENT) == Count.SEVERAL;
    }

    @Override
    public List<String> leaseProblems(List<StoreLease> leases) {
        return leases.stream()
                .flatMap(
                        l ->
                                MongoLeaseRule.problem(l.where(), l.lease(), settings.timeout())
                                        .stream())
                .toList();
    }

    @Override
    public Optional<String> inTransactionProblem() {
        return Optional.of(
                "the store is MongoDB, and only the JDBC store keeps its records in the business"
                        + " database");
    }

    @Override
    public IdempotencyStore store(StoreResources resources, IdemkitConfig config) {
        return MongoStoreOpening.open(settings, resources);
    }
}
