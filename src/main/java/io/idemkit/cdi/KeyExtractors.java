package io.idemkit.cdi;

import io.idemkit.Idempotent;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * Checks at deployment where each {@code @Idempotent} method's key comes from (C6.1): the merged
 * {@link HttpKeyPolicy} must resolve, with no level naming both a key header and a key extractor,
 * and a named {@link IdempotencyKeyExtractor} must be one bean of the application, so that no
 * request finds its extractor missing.
 */
final class KeyExtractors {

    private KeyExtractors() {}

    /**
     * @param methods the application's {@code @Idempotent} methods
     * @param config the configuration, for the per-method keys
     * @param defaults the global key policy
     * @return one message per method whose key source is invalid
     */
    static List<String> problems(
            BeanManager beans,
            List<MethodPolicies.MethodRef> methods,
            Config config,
            HttpKeyPolicy defaults) {
        List<String> problems = new ArrayList<>();
        for (MethodPolicies.MethodRef ref : methods) {
            Optional<String> named;
            try {
                named =
                        HttpKeyPolicy.resolve(
                                        config,
                                        ref.beanClass().getName(),
                                        ref.method().getName(),
                                        ref.beanClass().getAnnotation(Idempotent.class),
                                        ref.method().getAnnotation(Idempotent.class),
                                        defaults)
                                .keyExtractor();
                if (named.isPresent()) {
                    NamedBeans.check(
                            beans, ref.beanClass(), named.get(), IdempotencyKeyExtractor.class);
                }
            } catch (IllegalArgumentException e) {
                problems.add(
                        "Invalid key source of "
                                + ref
                                + " (annotations and per-method configuration keys merged): "
                                + e.getMessage());
            }
        }
        return problems;
    }
}
