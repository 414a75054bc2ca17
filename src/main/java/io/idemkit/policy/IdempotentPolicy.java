package io.idemkit.policy;

import io.idemkit.Idempotent;
import io.idemkit.config.BeanClassName;
import io.idemkit.config.DurationFormat;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.config.MessagePolicy;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.CompletionMode;
import io.idemkit.core.OperationPolicy;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Merges an {@link Idempotent} annotation over the configured defaults: a member set on the method
 * wins over the same member on its class, which wins over the configuration. The {@link #REDACTOR}
 * member is carried by name only: which bean it is, the CDI glue decides.
 */
public final class IdempotentPolicy {

    /** The member that sets the lease. */
    public static final String LEASE_TTL = "leaseTtl";

    /** The member that sets the completed TTL. */
    public static final String COMPLETED_TTL = "completedTtl";

    /** The member that sets the wait timeout. */
    public static final String WAIT_TIMEOUT = "waitTimeout";

    /** The member that sets the cacheable statuses. */
    public static final String CACHEABLE_STATUS = "cacheableStatus";

    /**
     * The member that names the redactor's class (C4.10). The CDI glue resolves it to a bean; this
     * class only carries its name.
     */
    public static final String REDACTOR = "redactor";

    /** The member that says where a method in a JTA transaction completes its record (C13). */
    public static final String COMPLETION = "completion";

    /** The members that shape an operation's policy, which configuration can override. */
    public static final List<String> POLICY_MEMBERS =
            List.of(LEASE_TTL, COMPLETED_TTL, WAIT_TIMEOUT, CACHEABLE_STATUS, REDACTOR, COMPLETION);

    private IdempotentPolicy() {}

    /**
     * @param onMethod the method's annotation, or {@code null}
     * @param onType the declaring type's annotation, or {@code null}
     * @param defaults the configured policy
     * @return the operation policy of the method
     * @throws IllegalArgumentException naming the member, its value and the rule it broke
     */
    public static OperationPolicy resolve(
            Idempotent onMethod, Idempotent onType, OperationPolicy defaults) {
        Map<String, String> merged = new LinkedHashMap<>(members(onType));
        merged.putAll(members(onMethod));
        return resolve(merged, defaults);
    }

    /**
     * Merges the sources of one method's policy (see {@link PerMethodConfig} for their order).
     *
     * @param beanClass the class the method is called on
     * @param method the method
     * @param defaults the configured policy
     * @param config the configuration, for the per-class and per-method keys
     * @return the method's operation policy
     * @throws IllegalArgumentException naming the member, its value and the rule it broke
     */
    public static OperationPolicy resolve(
            Class<?> beanClass, Method method, OperationPolicy defaults, ConfigLookup config) {
        return resolve(members(beanClass, method, config), defaults);
    }

    /**
     * @param beanClass the class the method is called on
     * @param method the method
     * @param config the configuration, for the per-class and per-method keys
     * @return the members one method's sources set, merged in their order of precedence: the
     *     declaring class's annotation, the bean class's, the declaring class's keys, the bean
     *     class's, the method's annotation, the declaring class's method keys, the bean class's
     */
    public static Map<String, String> members(
            Class<?> beanClass, Method method, ConfigLookup config) {
        Map<String, String> members = new LinkedHashMap<>();
        Class<?> declaring = method.getDeclaringClass();
        members.putAll(members(declaring.getAnnotation(Idempotent.class)));
        members.putAll(members(beanClass.getAnnotation(Idempotent.class)));
        if (declaring != beanClass) {
            members.putAll(PerMethodConfig.forClass(config, declaring.getName()));
        }
        members.putAll(PerMethodConfig.forClass(config, beanClass.getName()));
        members.putAll(members(method.getAnnotation(Idempotent.class)));
        if (declaring != beanClass) {
            members.putAll(
                    PerMethodConfig.forMethod(config, declaring.getName(), method.getName()));
        }
        members.putAll(PerMethodConfig.forMethod(config, beanClass.getName(), method.getName()));
        return members;
    }

    /**
     * @param annotation an annotation, or {@code null}
     * @return its policy members that are set (not blank), by member name
     */
    public static Map<String, String> members(Idempotent annotation) {
        Map<String, String> set = new LinkedHashMap<>();
        if (annotation != null) {
            put(set, LEASE_TTL, annotation.leaseTtl());
            put(set, COMPLETED_TTL, annotation.completedTtl());
            put(set, WAIT_TIMEOUT, annotation.waitTimeout());
            put(set, CACHEABLE_STATUS, annotation.cacheableStatus());
            put(set, COMPLETION, annotation.completion());
            if (annotation.redactor() != void.class) {
                set.put(REDACTOR, annotation.redactor().getName());
            }
        }
        return set;
    }

    /**
     * Checks one member's text.
     *
     * @param member one of {@link #POLICY_MEMBERS}
     * @param text its value
     * @throws IllegalArgumentException with the rule the value broke (without the value)
     */
    public static void check(String member, String text) {
        switch (member) {
            case LEASE_TTL, COMPLETED_TTL -> DurationFormat.parseTtl(text);
            case WAIT_TIMEOUT -> DurationFormat.parseNotNegative(text);
            case CACHEABLE_STATUS -> CacheableStatuses.parse(text);
            case REDACTOR -> BeanClassName.check(text, "IdempotencyRedactor");
            case COMPLETION -> CompletionMode.parse(text);
            default ->
                    throw new IllegalArgumentException(
                            "unknown member; the members are "
                                    + String.join(", ", POLICY_MEMBERS)
                                    + ", for JAX-RS resources "
                                    + String.join(", ", HttpKeyPolicy.MEMBERS)
                                    + " and, for message-driven beans, "
                                    + String.join(", ", MessagePolicy.MEMBERS));
        }
    }

    /**
     * @param members the members set, by name (later sources already merged over earlier ones)
     * @param defaults the configured policy
     * @return the operation policy
     * @throws IllegalArgumentException naming the member, its value and the rule it broke
     */
    public static OperationPolicy resolve(Map<String, String> members, OperationPolicy defaults) {
        Duration lease =
                member(
                        LEASE_TTL,
                        members.getOrDefault(LEASE_TTL, ""),
                        DurationFormat::parseTtl,
                        defaults.leaseTtl());
        Duration completed =
                member(
                        COMPLETED_TTL,
                        members.getOrDefault(COMPLETED_TTL, ""),
                        DurationFormat::parseTtl,
                        defaults.completedTtl());
        Duration wait =
                member(
                        WAIT_TIMEOUT,
                        members.getOrDefault(WAIT_TIMEOUT, ""),
                        DurationFormat::parseNotNegative,
                        defaults.waitTimeout());
        String statuses = members.getOrDefault(CACHEABLE_STATUS, "");
        return new OperationPolicy(
                lease,
                completed,
                wait,
                defaults.onStorageError(),
                statuses.isBlank()
                        ? defaults.cacheable()
                        : member(CACHEABLE_STATUS, statuses, CacheableStatuses::parse, null),
                defaults.redactor(),
                member(
                        COMPLETION,
                        members.getOrDefault(COMPLETION, ""),
                        CompletionMode::parse,
                        defaults.completion()));
    }

    /**
     * @param members the members set, by name (later sources already merged over earlier ones)
     * @return the class name of the redactor they name; empty for the application's global one
     */
    public static Optional<String> redactor(Map<String, String> members) {
        return Optional.ofNullable(members.get(REDACTOR)).filter(name -> !name.isBlank());
    }

    private static void put(Map<String, String> set, String name, String value) {
        if (!value.isBlank()) {
            set.put(name, value);
        }
    }

    private static <T> T member(String name, String text, Function<String, T> parse, T fallback) {
        if (text.isBlank()) {
            return fallback;
        }
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "=\"" + text + "\": " + e.getMessage(), e);
        }
    }
}
