package io.idemkit.store;

import io.idemkit.config.ConfigSection;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One bundled store, as the CDI glue sees it: the one seam between a store's wing ({@code
 * store.memory}, {@code store.mongo}, {@code store.jdbc}) and the glue, which only hands it the
 * configuration and the container's resources ({@link StoreResources}) and does not know which
 * stores exist. Each wing lists its factory in {@code
 * META-INF/services/io.idemkit.store.StoreFactory}; the glue makes one instance a deployment.
 *
 * <p>A wing brings everything of its own: its name ({@link #name}), its keys ({@link #keys}, which
 * the unknown-key check learns from here), their reading and checks, and its driver. A new store is
 * a new package and a line in the service file; nothing outside the package changes.
 *
 * <p>A factory is loaded whether or not its store's driver is on the application's class path, so
 * its class names no type of that driver: the glue asks {@link #driver()} first, and calls {@link
 * #read}, {@link #pickedByAuto} and everything after only when the driver is there (C8). The calls
 * come in this order, from one thread at deployment ({@link #store} and {@link #stop} later, from
 * the container): not thread-safe otherwise.
 *
 * <p>Internal: no compatibility guaranteed.
 */
public interface StoreFactory extends ConfigSection {

    /**
     * @return the value of {@code idemkit.store} that names this store: lower case, unique among
     *     the bundled stores, never {@code auto}
     */
    String name();

    /**
     * {@inheritDoc}
     *
     * <p>Every key of the store's own ({@code idemkit.jdbc.*}), known whichever store is chosen.
     */
    @Override
    Set<String> keys();

    /**
     * @return how an application asks for this store, for the warning that {@code auto} fell back
     *     to the in-memory store ("set idemkit.mongo.uri"); empty for the in-memory store itself
     */
    Optional<String> howToChoose();

    /**
     * @return the driver the store needs beyond the library jar and the JDK, or empty when it needs
     *     none
     */
    Optional<StoreDriver> driver();

    /**
     * @return the names of the application's bean types the store may be opened on (MongoDB's
     *     {@code MongoClient}), named as strings so that an absent driver's type is never loaded;
     *     the glue counts the application's default beans of each ({@link StoreResources#count})
     */
    default Set<String> beanTypes() {
        return Set.of();
    }

    /**
     * Answered without the driver: whether the configuration asks for this store although {@code
     * idemkit.store} does not name it (MongoDB: {@code idemkit.mongo.uri} is set), so that {@code
     * idemkit.store=auto} fails naming the missing driver instead of falling back to memory.
     *
     * @param values the application's configuration
     * @return whether {@code auto} would pick this store by its configuration alone
     */
    default boolean askedForByConfiguration(ConfigValues values) {
        return false;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Called at every deployment where the driver is there, whichever store is chosen.
     */
    @Override
    void read(ConfigValues values);

    /**
     * @param resources the container's resources
     * @return whether {@code idemkit.store=auto} picks this store; the in-memory store is the
     *     fallback when no store is picked
     */
    default boolean pickedByAuto(StoreResources resources) {
        return false;
    }

    /**
     * @param resources the container's resources
     * @return a warning to log when {@code auto} passed this store over and fell back to memory,
     *     such as "several beans, cannot tell which"
     */
    default Optional<String> passedOver(StoreResources resources) {
        return Optional.empty();
    }

    /**
     * @param resources the container's resources
     * @return why this store, named by {@code idemkit.store}, cannot be had, or empty
     */
    default Optional<String> unavailable(StoreResources resources) {
        return Optional.empty();
    }

    /**
     * The store's own rule for leases, checked when the glue's producer makes this store.
     *
     * @param leases every effective lease of the deployment, each named where it was set
     * @return one problem per lease that breaks it
     */
    default List<String> leaseProblems(List<StoreLease> leases) {
        return List.of();
    }

    /**
     * @return why this store cannot complete a record inside the business transaction (C13), or
     *     empty when it can
     */
    Optional<String> inTransactionProblem();

    /**
     * Opens and checks the store at deployment, when the glue's producer makes it: what can be
     * refused before the first request is refused here (C12).
     *
     * @param resources the container's resources
     * @param config the validated configuration
     * @return the deployment problems; none when the store opened
     */
    default List<String> open(StoreResources resources, IdemkitConfig config) {
        return List.of();
    }

    /**
     * Called once, by the glue's producer, after a deployment without problems.
     *
     * @param resources the container's resources
     * @param config the validated configuration
     * @return the application's store
     */
    IdempotencyStore store(StoreResources resources, IdemkitConfig config);

    /** Stops what the store's wing runs beside the store (a scheduled purge); idempotent. */
    default void stop() {}
}
