package io.idemkit.message;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.ScopeResolver;
import io.idemkit.method.LazyDelivery;
import io.idemkit.method.ListenerDelivery;
import io.idemkit.method.MethodPlan;
import io.idemkit.transaction.TransactionHooks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;

/**
 * The application's one message surface (C11), which the method surface's interceptor hands every
 * {@code onMessage} to. Interceptors come and go with the beans they intercept (an instance per
 * pooled message-driven bean), while what the surface remembers, such as the last failure of each
 * message, is the application's. Its {@link MessageDelivery}, the one class that uses Jakarta
 * Messaging, is made on the first message, so that a runtime without the API never loads it.
 */
@ApplicationScoped
public class MessageSurface implements ListenerDelivery {

    private final LazyDelivery delivery;

    /** For the CDI client proxy only. */
    protected MessageSurface() {
        this(null, null, null, null, null);
    }

    @Inject
    MessageSurface(
            IdempotencyEngine engine,
            ScopeResolver scope,
            TransactionHooks transactions,
            IdemkitConfig config,
            BeanManager beans) {
        this.delivery =
                new LazyDelivery(
                        () -> MessageDelivery.create(engine, scope, transactions, config, beans));
    }

    @Override
    public String transport() {
        return JmsTransport.NAME;
    }

    @Override
    public Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception {
        return delivery.get().deliver(invocation, beanClass, plan);
    }
}
