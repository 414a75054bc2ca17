package io.idemkit.policy;

import io.idemkit.Idempotent;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The checks of the annotations themselves, as the container discovers each type: every {@link
 * Idempotent} member's value, an {@code @Idempotent} no interceptor can reach, and an
 * {@code @IdempotencyKey} or {@code @IdempotencyIgnored} parameter where it has no effect. Each
 * problem is a definition error, handed to the consumer given; the annotations' own leases are kept
 * for the chosen store's rule ({@link LeaseChecks#effective}). Not thread-safe: the container
 * discovers types one at a time.
 */
public final class AnnotationChecks {

    /** Policy values used only to validate annotation members; never used for an operation. */
    private static final OperationPolicy VALIDATION_DEFAULTS =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private final Consumer<String> errors;
    private final List<LeaseChecks.AnnotatedLease> leases = new ArrayList<>();

    /**
     * @param errors receives each definition error
     */
    public AnnotationChecks(Consumer<String> errors) {
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /**
     * @param onType a type's annotation
     * @param typeName the type's name
     */
    public void type(Idempotent onType, String typeName) {
        check(
                onType,
                null,
                typeName,
                List.of(PerMethodConfig.classKey(typeName, IdempotentPolicy.LEASE_TTL)));
    }

    /**
     * @param onMethod the method's annotation, or {@code null}
     * @param onType its type's annotation, or {@code null}
     * @param method the method
     * @return whether an interceptor can reach the method (it is not private, static or final)
     */
    public boolean method(Idempotent onMethod, Idempotent onType, Method method) {
        String where = describe(method);
        String unreachable = unreachable(method.getModifiers());
        if (onMethod != null) {
            String clazz = method.getDeclaringClass().getName();
            String methodKey =
                    PerMethodConfig.methodKey(clazz, method.getName(), IdempotentPolicy.LEASE_TTL);
            check(
                    onMethod,
                    onType,
                    where,
                    onMethod.leaseTtl().isBlank()
                            ? List.of(
                                    methodKey,
                                    PerMethodConfig.classKey(clazz, IdempotentPolicy.LEASE_TTL))
                            : List.of(methodKey));
            if (unreachable != null) {
                errors.accept(
                        "@Idempotent on "
                                + where
                                + " would have no effect: interceptors never apply to a "
                                + unreachable
                                + " method. Make it a non-static, non-private, non-final"
                                + " method.");
            }
        }
        return unreachable == null;
    }

    /**
     * @param position the parameter's position
     * @param key whether it is {@code @IdempotencyKey}
     * @param ignored whether it is {@code @IdempotencyIgnored}
     * @param idempotent whether its method or the method's class is {@code @Idempotent}
     * @param method the method
     */
    public void parameter(
            int position, boolean key, boolean ignored, boolean idempotent, Method method) {
        String marker = key ? "@IdempotencyKey" : "@IdempotencyIgnored";
        if ((key || ignored) && !idempotent) {
            errors.accept(
                    marker
                            + " on parameter "
                            + position
                            + " of "
                            + describe(method)
                            + " has no effect: neither the method nor its class is"
                            + " @Idempotent.");
        } else if (key && ignored) {
            errors.accept(
                    "Parameter "
                            + position
                            + " of "
                            + describe(method)
                            + " is both @IdempotencyKey and @IdempotencyIgnored; a key"
                            + " identifies the operation, so it cannot be ignored. Keep"
                            + " one.");
        }
    }

    /**
     * @return the leases the annotations checked so far set, each named where it was set
     */
    public List<LeaseChecks.AnnotatedLease> leases() {
        return List.copyOf(leases);
    }

    /**
     * @return why no interceptor can reach a method with these modifiers ({@code private}, {@code
     *     static}, {@code final}); {@code null} when one can
     */
    private static String unreachable(int modifiers) {
        if (Modifier.isPrivate(modifiers)) {
            return "private";
        }
        if (Modifier.isStatic(modifiers)) {
            return "static";
        }
        return Modifier.isFinal(modifiers) ? "final" : null;
    }

    private void check(
            Idempotent annotation, Idempotent onType, String where, List<String> overriddenBy) {
        try {
            OperationPolicy policy =
                    IdempotentPolicy.resolve(annotation, onType, VALIDATION_DEFAULTS);
            String lease =
                    !annotation.leaseTtl().isBlank()
                            ? annotation.leaseTtl()
                            : onType == null ? "" : onType.leaseTtl();
            if (!lease.isBlank()) {
                leases.add(
                        new LeaseChecks.AnnotatedLease(
                                lease, policy.leaseTtl(), where, overriddenBy));
            }
        } catch (IllegalArgumentException e) {
            errors.accept("Invalid @Idempotent(" + e.getMessage() + ") on " + where);
        }
        HttpKeyResolution.members(annotation)
                .forEach(
                        (member, text) -> {
                            try {
                                HttpKeyPolicy.check(member, text);
                            } catch (IllegalArgumentException e) {
                                errors.accept(
                                        "Invalid @Idempotent("
                                                + member
                                                + "=\""
                                                + text
                                                + "\": "
                                                + e.getMessage()
                                                + ") on "
                                                + where);
                            }
                        });
    }

    private static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName() + "()";
    }
}
