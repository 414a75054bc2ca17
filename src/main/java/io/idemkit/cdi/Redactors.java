package io.idemkit.cdi;

import io.idemkit.core.OperationPolicy;
import io.idemkit.policy.IdempotentPolicy;
import io.idemkit.spi.IdempotencyRedactor;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which {@link IdempotencyRedactor} bean rewrites the stored copy of each method's result (C4.10):
 * the one the method names ({@code @Idempotent(redactor)} or its per-method key), else the
 * application's one {@code @Default} redactor bean, else none. The deployment checks every choice
 * ({@link io.idemkit.policy.BeanChoiceChecks}), so that no request finds a redactor missing.
 */
final class Redactors {

    private Redactors() {}

    /**
     * @return the global redactor's problem: several {@code @Default} redactor beans, none of them
     *     an enabled alternative
     */
    static Optional<String> globalProblem(BeanManager beans) {
        Set<Bean<?>> found = beans.getBeans(IdempotencyRedactor.class);
        try {
            beans.resolve(found);
            return Optional.empty();
        } catch (AmbiguousResolutionException e) {
            return Optional.of(
                    "More than one IdempotencyRedactor bean could apply to every @Idempotent"
                            + " method: "
                            + NamedBeans.names(found)
                            + ". Choose the global one (make it an enabled @Alternative, or give"
                            + " the others a qualifier) and name the others per method with"
                            + " @Idempotent(redactor=...).");
        }
    }

    /**
     * @param beanClass the class the method is called on
     * @param members the method's merged members
     * @return the method's redactor, or {@link OperationPolicy#NO_REDACTION}
     * @throws IllegalArgumentException when the named redactor is not a resolvable bean
     */
    static IdempotencyRedactor forMethod(
            BeanManager beans, Class<?> beanClass, Map<String, String> members) {
        Optional<String> named = IdempotentPolicy.redactor(members);
        if (named.isPresent()) {
            return NamedBeans.reference(beans, beanClass, named.get(), IdempotencyRedactor.class);
        }
        Bean<?> global = beans.resolve(beans.getBeans(IdempotencyRedactor.class));
        return global == null
                ? OperationPolicy.NO_REDACTION
                : NamedBeans.reference(
                        beans, global, IdempotencyRedactor.class, IdempotencyRedactor.class);
    }
}
