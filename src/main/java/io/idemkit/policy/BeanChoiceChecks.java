package io.idemkit.policy;

import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.spi.IdempotencyKeyExtractor;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.RecordKeyExtractor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The deployment's checks of the beans a method's policy names, so that no request finds one
 * missing: its {@link IdempotencyRedactor} (C4.10), and where its key comes from (C6.1), whose
 * merged {@link HttpKeyPolicy} must resolve, with no level naming both a key header and a key
 * extractor, and whose named {@link IdempotencyKeyExtractor} (for an {@code @Incoming} method,
 * {@link RecordKeyExtractor}, C17.1) must be one bean of the application. Which bean a name is, the
 * container answers ({@link NamedBeanCheck}).
 */
public final class BeanChoiceChecks {

    private static final String MERGED = " (annotations and per-method configuration keys merged)";

    private BeanChoiceChecks() {}

    /**
     * @param beans answers whether a name is one bean of the application
     * @param methods the application's {@code @Idempotent} methods
     * @param config the configuration, for the per-method keys
     * @return one message per method whose named redactor is not a resolvable redactor bean
     */
    public static List<String> redactors(
            NamedBeanCheck beans, List<MethodSite> methods, ConfigLookup config) {
        List<String> problems = new ArrayList<>();
        for (MethodSite site : methods) {
            MethodRef ref = site.ref();
            Map<String, String> members =
                    IdempotentPolicy.members(ref.beanClass(), ref.method(), config);
            Optional<String> named = IdempotentPolicy.redactor(members);
            if (named.isEmpty()) {
                continue;
            }
            try {
                beans.check(ref.beanClass(), named.get(), IdempotencyRedactor.class);
            } catch (IllegalArgumentException e) {
                problems.add(
                        "Invalid @Idempotent("
                                + IdempotentPolicy.REDACTOR
                                + "="
                                + named.get()
                                + ") on "
                                + ref
                                + MERGED
                                + ": "
                                + e.getMessage());
            }
        }
        return problems;
    }

    /**
     * @param beans answers whether a name is one bean of the application
     * @param methods the application's {@code @Idempotent} methods
     * @param config the configuration, for the per-method keys
     * @param defaults the global key policy
     * @return one message per method whose key source is invalid
     */
    public static List<String> keyExtractors(
            NamedBeanCheck beans,
            List<MethodSite> methods,
            ConfigLookup config,
            HttpKeyPolicy defaults) {
        List<String> problems = new ArrayList<>();
        for (MethodSite site : methods) {
            MethodRef ref = site.ref();
            boolean incoming = MethodSite.REACTIVE_MESSAGING.equals(site.transport());
            try {
                Optional<String> named =
                        incoming
                                ? RecordKeyResolution.forMethod(
                                                config, ref.beanClass(), ref.method())
                                        .extractor()
                                : HttpKeyResolution.forMethod(
                                                config, ref.beanClass(), ref.method(), defaults)
                                        .keyExtractor();
                if (named.isPresent()) {
                    beans.check(
                            ref.beanClass(),
                            named.get(),
                            incoming ? RecordKeyExtractor.class : IdempotencyKeyExtractor.class);
                }
            } catch (IllegalArgumentException e) {
                problems.add("Invalid key source of " + ref + MERGED + ": " + e.getMessage());
            }
        }
        return problems;
    }
}
