package io.idemkit.reactive;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.ScopeResolver;
import io.idemkit.method.LazyDelivery;
import io.idemkit.method.ListenerDelivery;
import io.idemkit.method.MethodPlan;
import io.idemkit.spi.MethodResultCodec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;

/**
 * The application's one Reactive Messaging surface (C17), which the method surface's interceptor
 * hands every record of an {@code @Idempotent @Incoming} method to. Its {@link RecordDelivery},
 * which uses the Reactive Messaging API, is made on the first record, so that a runtime without the
 * API never loads it.
 */
@ApplicationScoped
public class ReactiveSurface implements ListenerDelivery {

    private final LazyDelivery delivery;

    /** For the CDI client proxy only. */
    protected ReactiveSurface() {
        this(null, null, null, null, null, null);
    }

    @Inject
    ReactiveSurface(
            IdempotencyEngine engine,
            ScopeResolver scope,
            IdemkitConfig config,
            BeanManager beans,
            MethodResultCodec codec,
            MethodPolicyLookup lookup) {
        this.delivery =
                new LazyDelivery(
                        () -> RecordDelivery.create(engine, scope, config, beans, codec, lookup));
    }

    @Override
    public String transport() {
        return ReactiveMessagingTransport.NAME;
    }

    @Override
    public Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception {
        return delivery.get().deliver(invocation, beanClass, plan);
    }
}
