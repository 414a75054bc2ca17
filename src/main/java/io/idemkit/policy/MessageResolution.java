package io.idemkit.policy;

import io.idemkit.config.MessageKeySource;
import io.idemkit.config.MessagePolicy;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Merges how an {@code @Idempotent} message-driven bean treats its messages (C11): the global
 * {@code idemkit.message.*} values ({@link MessagePolicy}) under the bean class's per-method keys
 * and its {@code onMessage} method's ({@link PerMethodConfig}).
 */
public final class MessageResolution {

    private MessageResolution() {}

    /**
     * @param config the configuration
     * @param beanClass the message-driven bean's class
     * @param method its listener method
     * @param defaults the global values
     * @return the bean's policy
     * @throws IllegalArgumentException naming the key, its value and the rule it broke
     */
    public static MessagePolicy forMethod(
            ConfigLookup config, Class<?> beanClass, Method method, MessagePolicy defaults) {
        return resolve(config, beanClass.getName(), method.getName(), defaults);
    }

    /**
     * @param defaults the global values
     * @return the policy of a listener method, by its bean class and method, read from the
     *     application's configuration when asked
     */
    public static BiFunction<Class<?>, Method, MessagePolicy> perMethod(MessagePolicy defaults) {
        return (beanClass, method) ->
                forMethod(ConfigLookup.current(), beanClass, method, defaults);
    }

    /**
     * @param config the configuration
     * @param beanClass the message-driven bean's class name
     * @param methodName its listener method's name
     * @param defaults the global values
     * @return the bean's policy: the method's keys over the class's over the defaults
     * @throws IllegalArgumentException naming the key, its value and the rule it broke
     */
    public static MessagePolicy resolve(
            ConfigLookup config, String beanClass, String methodName, MessagePolicy defaults) {
        Map<String, String> members = new LinkedHashMap<>();
        members.putAll(PerMethodConfig.forClass(config, beanClass, MessagePolicy.MEMBERS));
        members.putAll(
                PerMethodConfig.forMethod(config, beanClass, methodName, MessagePolicy.MEMBERS));
        String property = members.getOrDefault(MessagePolicy.KEY_PROPERTY, defaults.keyProperty());
        String attempts = members.get(MessagePolicy.MAX_ATTEMPTS);
        String fingerprint = members.get(MessagePolicy.FINGERPRINT);
        String keySource = members.get(MessagePolicy.KEY_SOURCE);
        try {
            return new MessagePolicy(
                    MessagePolicy.propertyName(property),
                    attempts == null ? defaults.maxAttempts() : MessagePolicy.maxAttempts(attempts),
                    fingerprint == null
                            ? defaults.fingerprintBody()
                            : MessagePolicy.fingerprintBody(fingerprint),
                    keySource == null ? defaults.keySource() : MessageKeySource.of(keySource));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "the message settings of "
                            + beanClass
                            + "."
                            + methodName
                            + "(): "
                            + e.getMessage(),
                    e);
        }
    }
}
