package io.idemkit.reactive;

import io.idemkit.config.MessagePolicy;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.MessageResolution;
import io.idemkit.policy.RecordKeyResolution;
import io.idemkit.spi.RecordKeyExtractor;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * How one {@code @Incoming} method's records are keyed and counted (C17.1): its message settings,
 * the Kafka header its key is in ({@code keyHeader}, else the message key property), and the
 * extractor it names. Made on the method's first record; deployment checked every part of it.
 *
 * @param policy the method's message settings
 * @param header the header that carries a record's key
 * @param extractor the bean that takes the key from the record, asked first, when the method names
 *     one
 */
record RecordKeying(MessagePolicy policy, String header, Optional<RecordKeyExtractor> extractor) {

    /**
     * @param defaults the global message settings
     * @param lookup finds the application's extractor bean
     * @return each method's keying, by its bean class and method, read from the application's
     *     configuration when asked
     */
    static BiFunction<Class<?>, Method, RecordKeying> perMethod(
            MessagePolicy defaults, MethodPolicyLookup lookup) {
        BiFunction<Class<?>, Method, MessagePolicy> policies =
                MessageResolution.perMethod(defaults);
        return (beanClass, method) -> {
            MessagePolicy policy = policies.apply(beanClass, method);
            RecordKeyResolution.RecordKeys keys =
                    RecordKeyResolution.forMethod(ConfigLookup.current(), beanClass, method);
            return new RecordKeying(
                    policy,
                    keys.header().orElse(policy.keyProperty()),
                    keys.extractor()
                            .map(
                                    name ->
                                            lookup.keyExtractor(
                                                    beanClass, name, RecordKeyExtractor.class)));
        };
    }
}
