package io.idemkit.cdi;

import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The application's beans that an {@code @Idempotent} member or a configuration key names by class
 * (a redactor, a key extractor): found by their own class, among every qualifier, with one message
 * per way the name can be wrong. Stateless.
 */
final class NamedBeans {

    private NamedBeans() {}

    /**
     * @param context the class whose loader sees the named class (the annotated bean's)
     * @param className the named class
     * @param spi the interface it must implement
     * @return a reference to the one bean of that class
     * @throws IllegalArgumentException when the class is not visible, does not implement {@code
     *     spi}, is no bean, or is several
     */
    static <T> T reference(BeanManager beans, Class<?> context, String className, Class<T> spi) {
        Class<?> type = load(context, className);
        // Asked for by its own class: a bean restricted with @Typed may lack the interface among
        // its bean types.
        return reference(beans, bean(beans, type, spi), type, spi);
    }

    /**
     * @param bean a bean whose types include {@code type}
     * @return a reference to it, as {@code spi}
     */
    static <T> T reference(BeanManager beans, Bean<?> bean, Class<?> type, Class<T> spi) {
        return spi.cast(beans.getReference(bean, type, beans.createCreationalContext(bean)));
    }

    /**
     * Checks a name at deployment.
     *
     * @throws IllegalArgumentException as {@link #reference}
     */
    static void check(BeanManager beans, Class<?> context, String className, Class<?> spi) {
        bean(beans, load(context, className), spi);
    }

    /**
     * @return the bean classes of {@code found}, sorted and comma-separated
     */
    static String names(Set<Bean<?>> found) {
        return found.stream()
                .map(b -> b.getBeanClass().getName())
                .sorted()
                .collect(Collectors.joining(", "));
    }

    private static Bean<?> bean(BeanManager beans, Class<?> type, Class<?> spi) {
        String name = type.getName();
        if (!spi.isAssignableFrom(type)) {
            throw new IllegalArgumentException(name + " does not implement " + spi.getName());
        }
        Set<Bean<?>> found = beans.getBeans(type, Any.Literal.INSTANCE);
        Bean<?> bean;
        try {
            bean = beans.resolve(found);
        } catch (AmbiguousResolutionException e) {
            throw new IllegalArgumentException(
                    "several beans have the type " + name + ": " + names(found) + ". Keep one.");
        }
        if (bean == null) {
            throw new IllegalArgumentException(
                    name
                            + " is not a bean of the application: give it a bean-defining"
                            + " annotation such as @ApplicationScoped, in a bean archive.");
        }
        return bean;
    }

    private static Class<?> load(Class<?> context, String name) {
        ClassLoader loader = context.getClassLoader();
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException(
                    "no class " + name + " is visible to " + context.getName());
        }
    }
}
