package io.idemkit.config;

import io.idemkit.Idempotent;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.OperationPolicy;
import java.time.Duration;
import java.util.function.Function;

/**
 * Merges an {@link Idempotent} annotation over the configured defaults: a member set on the method
 * wins over the same member on its class, which wins over the configuration.
 */
public final class IdempotentPolicy {

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
        Duration lease =
                member(
                        "leaseTtl",
                        pick(onMethod, onType, Idempotent::leaseTtl),
                        DurationFormat::parsePositive,
                        defaults.leaseTtl());
        Duration completed =
                member(
                        "completedTtl",
                        pick(onMethod, onType, Idempotent::completedTtl),
                        DurationFormat::parsePositive,
                        defaults.completedTtl());
        Duration wait =
                member(
                        "waitTimeout",
                        pick(onMethod, onType, Idempotent::waitTimeout),
                        DurationFormat::parseNotNegative,
                        defaults.waitTimeout());
        String statuses = pick(onMethod, onType, Idempotent::cacheableStatus);
        return new OperationPolicy(
                lease,
                completed,
                wait,
                defaults.onStorageError(),
                statuses.isEmpty()
                        ? defaults.cacheable()
                        : member("cacheableStatus", statuses, CacheableStatuses::parse, null));
    }

    private static String pick(
            Idempotent onMethod, Idempotent onType, Function<Idempotent, String> member) {
        if (onMethod != null && !member.apply(onMethod).isBlank()) {
            return member.apply(onMethod);
        }
        if (onType != null && !member.apply(onType).isBlank()) {
            return member.apply(onType);
        }
        return "";
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
