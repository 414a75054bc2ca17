package io.idemkit.cdi;

import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.Context;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;

/**
 * The application's store object itself, not its CDI client proxy, so that the engine calls an
 * application-scoped store without the proxy's dispatch. Portable CDI: the context of a
 * normal-scoped bean hands out the contextual instance; a pseudo-scoped bean is injected as itself.
 * Nothing else needs the object behind the proxy: what callers ask of a store is in its SPI.
 */
final class StoreInstance {

    private StoreInstance() {}

    /**
     * The store object the engine keeps for the application's life: the object itself when the
     * store bean is {@code @ApplicationScoped}, whose one instance lives exactly as long as the
     * application, so that a store call skips the client proxy's context lookup and reflective
     * dispatch; the proxy for any other normal scope, whose instance can change (such a store
     * cannot serve the deployment-time check today, but the engine must not depend on that).
     *
     * @param injected the store as it was injected (possibly a client proxy)
     * @param beans the bean manager
     * @return the store object the engine may hold for the application's life
     */
    static IdempotencyStore forApplicationLifetime(IdempotencyStore injected, BeanManager beans) {
        Bean<?> bean = beans.resolve(beans.getBeans(IdempotencyStore.class));
        return bean != null && bean.getScope() == ApplicationScoped.class
                ? contextual(injected, bean, beans)
                : injected;
    }

    private static IdempotencyStore contextual(
            IdempotencyStore injected, Bean<?> bean, BeanManager beans) {
        Context context = beans.getContext(bean.getScope());
        Object actual = get(context, bean, beans);
        return actual instanceof IdempotencyStore store ? store : injected;
    }

    private static <T> T get(Context context, Bean<T> bean, BeanManager beans) {
        return context.get(bean, beans.createCreationalContext(bean));
    }
}
