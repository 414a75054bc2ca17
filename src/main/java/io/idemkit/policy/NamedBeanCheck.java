package io.idemkit.policy;

/**
 * Whether a class name a method's policy names (its redactor, its key extractor) is one bean of the
 * application, as the container answers it. The CDI glue implements it; the checks only ask.
 */
@FunctionalInterface
public interface NamedBeanCheck {

    /**
     * @param context the class whose policy names the bean
     * @param className the bean's class, as the policy names it
     * @param spi the interface the bean must implement
     * @throws IllegalArgumentException saying why it is no such bean
     */
    void check(Class<?> context, String className, Class<?> spi);
}
