package io.idemkit.core;

import io.idemkit.spi.IdempotencyStore;

/**
 * Wraps the store the engine uses, for example in one span per call. The engine producer applies
 * every such bean; there is none unless an optional integration registered it.
 */
public interface StoreDecorator {

    /**
     * @param store the store, possibly already decorated
     * @return the store to use instead; {@code store} itself when there is nothing to add
     */
    IdempotencyStore decorate(IdempotencyStore store);
}
