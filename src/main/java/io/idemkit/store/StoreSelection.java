package io.idemkit.store;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import java.util.ArrayList;
import java.util.List;
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
 * @param warnings what to say when {@code auto} fell back to memory, or chose the first of several
 *     configured stores
 */
public record StoreSelection(
        StoreFactory factory, boolean configured, Optional<String> problem, List<String> warnings) {

    /** Copies the warnings. */
    public StoreSelection {
        warnings = List.copyOf(warnings);
    }

    /** The value of {@code idemkit.store} that lets the configuration choose. */
    public static final String AUTO = "auto";

    /** The name of the store {@code auto} falls back to. */
    public static final String MEMORY = "memory";

    /**
     * Checks that {@code idemkit.store} names a bundled store, recording a problem in {@code
     * values} otherwise, so that the deployment lists it with the configuration's other problems.
     *
     * @param values the application's configuration
     * @param factories every bundled store
     */
    public static void checkName(ConfigValues values, List<StoreFactory> factories) {
        List<String> names = new ArrayList<>(List.of(AUTO));
        factories.forEach(f -> names.add(f.name()));
        values.value(
                ConfigKeys.STORE,
                ConfigKeys.STORE_DEFAULT,
                text -> {
                    if (!names.contains(ConfigReader.storeName(text))) {
                        throw new IllegalArgumentException(
                                "must be one of " + String.join(", ", names));
                    }
                    return text;
                });
    }

    /**
     * @param name {@code idemkit.store}, in lower case, {@link #AUTO} or a store's name
     * @param factories every bundled store, in the order {@code auto} considers them
     * @param usable whether a factory's driver is there (and its {@link StoreFactory#read} done)
     * @param values the application's configuration
     * @param resources the container's resources
     * @return the choice
     */
    public static StoreSelection choose(
            String name,
            List<StoreFactory> factories,
            Predicate<StoreFactory> usable,
            ConfigValues values,
            StoreResources resources) {
        if (!AUTO.equals(name)) {
            StoreFactory named = named(name, factories);
            Optional<String> problem =
                    usable.test(named)
                            ? named.unavailable(resources)
                            : Optional.of(missing(named, ConfigKeys.STORE + "=" + name));
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
                                                    + factory.name()
                                                    + " store by its configuration")),
                            List.of());
                }
                continue;
            }
            if (factory.pickedByAuto(resources)) {
                return new StoreSelection(
                        factory,
                        false,
                        Optional.empty(),
                        alsoConfigured(factory, factories, usable, values, resources));
            }
            factory.passedOver(resources).ifPresent(warnings::add);
        }
        warnings.add(fallback(factories, usable));
        return new StoreSelection(named(MEMORY, factories), false, Optional.empty(), warnings);
    }

    /**
     * The warning that {@code auto} chose the first of several stores the configuration asks for
     * (MongoDB's URI and Redis's both set): the others are not used, which the application may not
     * mean.
     */
    private static List<String> alsoConfigured(
            StoreFactory chosen,
            List<StoreFactory> factories,
            Predicate<StoreFactory> usable,
            ConfigValues values,
            StoreResources resources) {
        List<String> others =
                factories.stream()
                        .filter(f -> f != chosen)
                        .filter(
                                f ->
                                        usable.test(f)
                                                ? f.pickedByAuto(resources)
                                                : f.askedForByConfiguration(values))
                        .map(StoreFactory::name)
                        .toList();
        if (others.isEmpty()) {
            return List.of();
        }
        return List.of(
                ConfigKeys.STORE
                        + "=auto found more than one store configured and uses the "
                        + chosen.name()
                        + " store, the first it considers; the configuration of "
                        + String.join(", ", others)
                        + " is not used. Set "
                        + ConfigKeys.STORE
                        + " to the store you mean.");
    }

    /**
     * The warning that {@code auto} chose the in-memory store, naming how to choose the stores
     * whose drivers are there.
     */
    private static String fallback(List<StoreFactory> factories, Predicate<StoreFactory> usable) {
        List<String> ways =
                factories.stream().filter(usable).flatMap(f -> f.howToChoose().stream()).toList();
        return "idemkit uses the IN-MEMORY store because "
                + ConfigKeys.STORE
                + "=auto found no other store configured: records live in this JVM only, so"
                + " duplicates that reach another instance, or arrive after a restart, run again."
                + (ways.isEmpty()
                        ? ""
                        : " For production, choose a shared store: "
                                + String.join("; or ", ways)
                                + ".");
    }

    private static String missing(StoreFactory factory, String why) {
        return factory.driver().orElseThrow().missing(why);
    }

    private static StoreFactory named(String name, List<StoreFactory> factories) {
        return factories.stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no bundled store named " + name));
    }
}
