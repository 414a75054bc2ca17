package io.idemkit.store;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.StoreKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which bundled store the application gets, decided once at deployment from {@code idemkit.store},
 * each store's own configuration and the application's beans: a store named by {@code
 * idemkit.store} is that store; {@code auto} takes the first store that says it is wanted ({@link
 * StoreFactory#pickedByAuto}: MongoDB on {@code idemkit.mongo.uri} or the application's MongoDB
 * bean), and the in-memory store otherwise, with the others' warnings. A store whose driver is not
 * on the class path is never picked: named, or asked for by its configuration, it is a deployment
 * problem that names the missing artifact. An application's own {@code IdempotencyStore} bean
 * overrides the glue's producer, and with it this choice.
 *
 * @param factory the chosen store
 * @param configured whether {@code idemkit.store} named it, rather than {@code auto} choosing it
 * @param problem why the chosen store cannot be had, or empty
 * @param warnings what to say when {@code auto} fell back to memory
 */
public record StoreSelection(
        StoreFactory factory, boolean configured, Optional<String> problem, List<String> warnings) {

    /** Copies the warnings. */
    public StoreSelection {
        warnings = List.copyOf(warnings);
    }

    /**
     * @param kind {@code idemkit.store}
     * @param factories every bundled store, in the order {@code auto} considers them
     * @param usable whether a factory's driver is there (and its {@link StoreFactory#read} done)
     * @param values the application's configuration
     * @param resources the container's resources
     * @return the choice
     */
    public static StoreSelection choose(
            StoreKind kind,
            List<StoreFactory> factories,
            Predicate<StoreFactory> usable,
            ConfigValues values,
            StoreResources resources) {
        if (kind != StoreKind.AUTO) {
            StoreFactory named = of(kind, factories);
            Optional<String> problem =
                    usable.test(named)
                            ? named.unavailable(resources)
                            : Optional.of(
                                    missing(
                                            named,
                                            ConfigKeys.STORE
                                                    + "="
                                                    + kind.name().toLowerCase(Locale.ROOT)));
            return new StoreSelection(named, true, problem, List.of());
        }
        List<String> warnings = new ArrayList<>();
        for (StoreFactory factory : factories) {
            if (!usable.test(factory)) {
                if (factory.askedForByConfiguration(values)) {
                    return new StoreSelection(
                            factory,
                            false,
                            Optional.of(
                                    missing(
                                            factory,
                                            ConfigKeys.STORE
                                                    + "=auto picks the "
                                                    + factory.kind().name().toLowerCase(Locale.ROOT)
                                                    + " store by its configuration")),
                            List.of());
                }
                continue;
            }
            if (factory.pickedByAuto(resources)) {
                return new StoreSelection(factory, false, Optional.empty(), List.of());
            }
            factory.passedOver(resources).ifPresent(warnings::add);
        }
        return new StoreSelection(
                of(StoreKind.MEMORY, factories), false, Optional.empty(), warnings);
    }

    private static String missing(StoreFactory factory, String why) {
        return factory.driver().orElseThrow().missing(why);
    }

    private static StoreFactory of(StoreKind kind, List<StoreFactory> factories) {
        return factories.stream()
                .filter(f -> f.kind() == kind)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no bundled store for " + kind));
    }
}
