package io.idemkit.cdi;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.MessageChecks;
import io.idemkit.policy.MethodSite;
import io.idemkit.policy.PerMethodConfig;
import io.idemkit.policy.RecordKeyResolution;
import io.idemkit.spi.RecordKeyExtractor;
import jakarta.enterprise.inject.spi.Bean;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The checks of the application's {@code @Idempotent @Incoming} methods (C17), made while beans are
 * still being defined, as definition errors: a Reactive Messaging runtime connects its channels at
 * deployment validation, and WildFly leaves the channels of a deployment refused then consuming
 * records. So these methods are refused first: the configuration they need, every per-method key,
 * their settings, their lease rule, and the extractor they name, which must be a bean the container
 * discovered ({@link #note}); whether it is one bean, not several, deployment validation asks the
 * container.
 */
final class IncomingMethodChecks {

    /** The bean types that are record key extractors, as the container discovered them. */
    private final Set<Class<?>> extractorTypes = ConcurrentHashMap.newKeySet();

    /** Notes a bean the container discovered, if it is a record key extractor. */
    void note(Bean<?> bean) {
        for (Type type : bean.getTypes()) {
            if (type instanceof Class<?> c
                    && c != RecordKeyExtractor.class
                    && RecordKeyExtractor.class.isAssignableFrom(c)) {
                extractorTypes.add(c);
            }
        }
    }

    /**
     * @param sites the application's {@code @Idempotent} methods
     * @param values the application's configuration, read only when one of them is an {@code
     *     Incoming} method
     * @return one message per broken rule; empty when none is
     */
    List<String> problems(List<MethodSite> sites, Supplier<ConfigValues> values) {
        List<MethodSite> incoming =
                sites.stream()
                        .filter(s -> MethodSite.REACTIVE_MESSAGING.equals(s.transport()))
                        .toList();
        if (incoming.isEmpty()) {
            return List.of();
        }
        IdemkitConfig read;
        try {
            read = ConfigReader.read(values.get());
        } catch (InvalidConfigurationException e) {
            return e.problems();
        }
        ConfigLookup config = ConfigLookup.current();
        List<String> problems = new ArrayList<>(PerMethodConfig.validate(config));
        if (problems.isEmpty()) {
            problems.addAll(MessageChecks.ofIncomingMethods(read, incoming, config));
        }
        if (problems.isEmpty()) {
            for (MethodSite site : incoming) {
                extractorThatIsNoBean(site, config).ifPresent(problems::add);
            }
        }
        return problems;
    }

    private Optional<String> extractorThatIsNoBean(MethodSite site, ConfigLookup config) {
        Class<?> beanClass = site.ref().beanClass();
        Optional<String> named =
                RecordKeyResolution.forMethod(config, beanClass, site.ref().method()).extractor();
        if (named.isEmpty()
                || extractorTypes.stream().anyMatch(t -> t.getName().equals(named.get()))) {
            return Optional.empty();
        }
        return Optional.of(
                "Invalid key source of "
                        + site.ref()
                        + " (annotations and per-method configuration keys merged): "
                        + named.get()
                        + " is not a bean of the application: give it a bean-defining annotation"
                        + " such as @ApplicationScoped, in a bean archive.");
    }
}
