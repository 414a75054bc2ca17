package io.idemkit.policy;

import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.config.MessagePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-class and per-method configuration keys, in the style of MicroProfile Fault Tolerance:
 * {@code <fqcn>/<method>/Idempotent/<member>} and {@code <fqcn>/Idempotent/<member>}, where {@code
 * <member>} is one of {@link IdempotentPolicy#POLICY_MEMBERS}. For example {@code
 * com.example.Payments/charge/Idempotent/leaseTtl=2m}.
 *
 * <p>Precedence, highest first, as in Fault Tolerance: the method's key, the method's annotation,
 * the class's key, the class's annotation, the global {@code idemkit.*} key. A method name applies
 * to every overload of it.
 */
public final class PerMethodConfig {

    /** The annotation segment of every per-method key. */
    public static final String ANNOTATION_SEGMENT = "Idempotent";

    private static final Pattern KEY =
            Pattern.compile("^([^/]+)(?:/([^/]+))?/" + ANNOTATION_SEGMENT + "/([^/]+)$");

    private PerMethodConfig() {}

    /**
     * @param className the class's fully qualified name
     * @param member the member
     * @return the class-level key
     */
    public static String classKey(String className, String member) {
        return className + "/" + ANNOTATION_SEGMENT + "/" + member;
    }

    /**
     * @param className the class's fully qualified name
     * @param methodName the method's name
     * @param member the member
     * @return the method-level key
     */
    public static String methodKey(String className, String methodName, String member) {
        return className + "/" + methodName + "/" + ANNOTATION_SEGMENT + "/" + member;
    }

    /**
     * @param config the configuration
     * @param className the class's fully qualified name
     * @return the members the class-level keys set
     */
    public static Map<String, String> forClass(ConfigLookup config, String className) {
        return forClass(config, className, IdempotentPolicy.POLICY_MEMBERS);
    }

    /**
     * @param config the configuration
     * @param className the class's fully qualified name
     * @param members the members to look for
     * @return those of {@code members} that the class-level keys set
     */
    public static Map<String, String> forClass(
            ConfigLookup config, String className, List<String> members) {
        Map<String, String> set = new LinkedHashMap<>();
        for (String member : members) {
            value(config, classKey(className, member)).ifPresent(v -> set.put(member, v));
        }
        return set;
    }

    /**
     * @param config the configuration
     * @param className the class's fully qualified name
     * @param methodName the method's name
     * @return the members the method-level keys set
     */
    public static Map<String, String> forMethod(
            ConfigLookup config, String className, String methodName) {
        return forMethod(config, className, methodName, IdempotentPolicy.POLICY_MEMBERS);
    }

    /**
     * @param config the configuration
     * @param className the class's fully qualified name
     * @param methodName the method's name
     * @param members the members to look for
     * @return those of {@code members} that the method-level keys set
     */
    public static Map<String, String> forMethod(
            ConfigLookup config, String className, String methodName, List<String> members) {
        Map<String, String> set = new LinkedHashMap<>();
        for (String member : members) {
            value(config, methodKey(className, methodName, member))
                    .ifPresent(v -> set.put(member, v));
        }
        return set;
    }

    /**
     * Checks every per-method key present in the configuration: a known member and a valid value.
     *
     * @param config the configuration
     * @return one message per problem, in the format {@code Invalid <key>=<value>: <rule>}
     */
    public static List<String> validate(ConfigLookup config) {
        List<String> problems = new ArrayList<>();
        for (String name : config.names()) {
            Matcher matcher = KEY.matcher(name);
            if (!matcher.matches()) {
                continue;
            }
            String member = matcher.group(3);
            String text = value(config, name).orElse("");
            try {
                if (MessagePolicy.MEMBERS.contains(member)) {
                    MessagePolicy.check(member, text);
                } else if (HttpKeyPolicy.MEMBERS.contains(member)) {
                    HttpKeyPolicy.check(member, text);
                } else {
                    IdempotentPolicy.check(member, text);
                }
            } catch (IllegalArgumentException e) {
                problems.add("Invalid " + name + "=" + text + ": " + e.getMessage());
            }
        }
        return problems;
    }

    private static Optional<String> value(ConfigLookup config, String key) {
        return config.value(key).map(String::trim);
    }
}
