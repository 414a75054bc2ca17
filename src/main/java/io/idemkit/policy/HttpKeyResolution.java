package io.idemkit.policy;

import io.idemkit.Idempotent;
import io.idemkit.config.HttpKeyPolicy;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Merges where a JAX-RS request's key comes from, and which of its headers and body fields enter
 * its fingerprint (C6.1, C6.9, C6.11): the global values ({@link HttpKeyPolicy}) under the class's
 * annotation, the class's keys, the method's annotation and the method's keys ({@link
 * PerMethodConfig}). A key header and a key extractor answer one question: the most specific level
 * that gives either decides, and one level that gives both is refused.
 */
public final class HttpKeyResolution {

    private HttpKeyResolution() {}

    /**
     * @param config the configuration
     * @param type the resource class
     * @param method the resource method
     * @param defaults the global values
     * @return the method's policy, from {@code type}'s and {@code method}'s annotations and keys
     * @throws IllegalArgumentException naming the rule a value broke
     */
    public static HttpKeyPolicy forMethod(
            ConfigLookup config, Class<?> type, Method method, HttpKeyPolicy defaults) {
        return resolve(
                config,
                type.getName(),
                method.getName(),
                type.getAnnotation(Idempotent.class),
                method.getAnnotation(Idempotent.class),
                defaults);
    }

    /**
     * @param config the configuration
     * @param type the resource class
     * @param methodName the resource method's name
     * @param onType the class's annotation, or {@code null}
     * @param onMethod the method's annotation, or {@code null}
     * @param defaults the global values
     * @return the method's policy: method key over method annotation over class key over class
     *     annotation over the defaults
     * @throws IllegalArgumentException naming the rule a value broke
     */
    public static HttpKeyPolicy resolve(
            ConfigLookup config,
            String type,
            String methodName,
            Idempotent onType,
            Idempotent onMethod,
            HttpKeyPolicy defaults) {
        String keyHeader = defaults.keyHeader();
        List<String> fingerprintHeaders = defaults.fingerprintHeaders();
        Optional<String> keyExtractor = defaults.keyExtractor();
        List<String> fingerprintFields = defaults.fingerprintFields();
        for (Map<String, String> level :
                levels(config, type, methodName, onType, onMethod, HttpKeyPolicy.MEMBERS)) {
            checkOneKeySource(level);
            if (level.containsKey(HttpKeyPolicy.KEY_HEADER)) {
                keyHeader = level.get(HttpKeyPolicy.KEY_HEADER);
                keyExtractor = Optional.empty();
            }
            if (level.containsKey(HttpKeyPolicy.KEY_EXTRACTOR)) {
                keyExtractor =
                        Optional.of(level.get(HttpKeyPolicy.KEY_EXTRACTOR))
                                .filter(n -> !n.isBlank());
            }
            if (level.containsKey(HttpKeyPolicy.FINGERPRINT_HEADERS)) {
                fingerprintHeaders =
                        HttpKeyPolicy.headerList(level.get(HttpKeyPolicy.FINGERPRINT_HEADERS));
            }
            if (level.containsKey(HttpKeyPolicy.FINGERPRINT_FIELDS)) {
                fingerprintFields =
                        HttpKeyPolicy.fieldList(level.get(HttpKeyPolicy.FINGERPRINT_FIELDS));
            }
        }
        return new HttpKeyPolicy(keyHeader, fingerprintHeaders, keyExtractor, fingerprintFields);
    }

    /**
     * @param names the members to read of the configuration keys
     * @return what each level sets, least specific first: the class's annotation, the class's keys,
     *     the method's annotation, the method's keys
     */
    static List<Map<String, String>> levels(
            ConfigLookup config,
            String type,
            String methodName,
            Idempotent onType,
            Idempotent onMethod,
            List<String> names) {
        return List.of(
                members(onType),
                PerMethodConfig.forClass(config, type, names),
                members(onMethod),
                PerMethodConfig.forMethod(config, type, methodName, names));
    }

    /**
     * @param level the members one source sets (an annotation, or the keys of one class or method)
     * @throws IllegalArgumentException when it names both a key header and a key extractor
     */
    public static void checkOneKeySource(Map<String, String> level) {
        String extractor = level.get(HttpKeyPolicy.KEY_EXTRACTOR);
        if (level.containsKey(HttpKeyPolicy.KEY_HEADER)
                && extractor != null
                && !extractor.isBlank()) {
            throw new IllegalArgumentException(
                    HttpKeyPolicy.KEY_HEADER
                            + " and "
                            + HttpKeyPolicy.KEY_EXTRACTOR
                            + " are both set: they are two ways to say where the key comes from;"
                            + " keep one");
        }
    }

    /**
     * @param annotation an annotation, or {@code null}
     * @return its members that are set, by name, the header and field lists comma-joined
     */
    public static Map<String, String> members(Idempotent annotation) {
        Map<String, String> set = new LinkedHashMap<>();
        if (annotation != null) {
            if (!annotation.keyHeader().isBlank()) {
                set.put(HttpKeyPolicy.KEY_HEADER, annotation.keyHeader());
            }
            if (annotation.fingerprintHeaders().length > 0) {
                set.put(
                        HttpKeyPolicy.FINGERPRINT_HEADERS,
                        String.join(",", annotation.fingerprintHeaders()));
            }
            if (annotation.keyExtractor() != void.class) {
                set.put(HttpKeyPolicy.KEY_EXTRACTOR, annotation.keyExtractor().getName());
            }
            if (annotation.fingerprintFields().length > 0) {
                set.put(
                        HttpKeyPolicy.FINGERPRINT_FIELDS,
                        String.join(",", annotation.fingerprintFields()));
            }
        }
        return set;
    }
}
