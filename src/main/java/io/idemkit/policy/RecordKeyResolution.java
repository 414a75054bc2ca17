package io.idemkit.policy;

import io.idemkit.Idempotent;
import io.idemkit.config.BeanClassName;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.spi.RecordKeyExtractor;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where an {@code @Idempotent @Incoming} method's record key comes from besides its message
 * settings (C17.1): the Kafka header {@code keyHeader} names, or the {@code RecordKeyExtractor}
 * bean {@code keyExtractor} names, from the class's annotation, the class's keys, the method's
 * annotation and the method's keys, the most specific level that gives either deciding, as for
 * resource methods ({@link HttpKeyResolution}); a level that gives both is refused. No global
 * value: {@code idemkit.key-header} and {@code idemkit.key-extractor} are the HTTP surface's.
 */
public final class RecordKeyResolution {

    /**
     * @param header the header that carries the key, when the method names one; else the message
     *     key property's
     * @param extractor the class name of the extractor bean, when the method names one
     */
    public record RecordKeys(Optional<String> header, Optional<String> extractor) {

        /** Neither: the key property's header, else the record's coordinates. */
        public static final RecordKeys NONE = new RecordKeys(Optional.empty(), Optional.empty());
    }

    private static final List<String> MEMBERS =
            List.of(HttpKeyPolicy.KEY_HEADER, HttpKeyPolicy.KEY_EXTRACTOR);

    private RecordKeyResolution() {}

    /**
     * @param config the configuration
     * @param type the bean class
     * @param method the {@code @Incoming} method
     * @return where its key comes from
     * @throws IllegalArgumentException naming the rule a value broke
     */
    public static RecordKeys forMethod(ConfigLookup config, Class<?> type, Method method) {
        Optional<String> header = Optional.empty();
        Optional<String> extractor = Optional.empty();
        for (Map<String, String> level :
                HttpKeyResolution.levels(
                        config,
                        type.getName(),
                        method.getName(),
                        type.getAnnotation(Idempotent.class),
                        method.getAnnotation(Idempotent.class),
                        MEMBERS)) {
            HttpKeyResolution.checkOneKeySource(level);
            if (level.containsKey(HttpKeyPolicy.KEY_HEADER)) {
                String name = level.get(HttpKeyPolicy.KEY_HEADER);
                HttpKeyPolicy.check(HttpKeyPolicy.KEY_HEADER, name);
                header = Optional.of(name.strip());
                extractor = Optional.empty();
            }
            if (level.containsKey(HttpKeyPolicy.KEY_EXTRACTOR)) {
                extractor =
                        Optional.of(level.get(HttpKeyPolicy.KEY_EXTRACTOR).strip())
                                .filter(n -> !n.isEmpty());
                extractor.ifPresent(n -> BeanClassName.check(n, "RecordKeyExtractor"));
                header = Optional.empty();
            }
        }
        return new RecordKeys(header, extractor);
    }

    /**
     * Checks, without the container, that a named extractor is a class {@code context} sees and
     * that it implements {@link RecordKeyExtractor}; whether it is one bean, deployment validation
     * asks the container.
     *
     * @param context the bean class whose method names the extractor
     * @param name the extractor's class name
     * @throws IllegalArgumentException saying which
     */
    public static void checkClass(Class<?> context, String name) {
        Class<?> type;
        try {
            type = Class.forName(name, false, context.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException(
                    "no class " + name + " is visible to " + context.getName());
        }
        if (!RecordKeyExtractor.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(
                    name + " does not implement " + RecordKeyExtractor.class.getName());
        }
    }
}
