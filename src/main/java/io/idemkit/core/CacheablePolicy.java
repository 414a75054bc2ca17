package io.idemkit.core;

import io.idemkit.spi.StoredResult;

/**
 * Decides whether an outcome is stored for replay (contract C4.4). An outcome that is not cacheable
 * releases the claim, so that a retry runs the operation again.
 */
@FunctionalInterface
public interface CacheablePolicy {

    /**
     * @param result the outcome of the operation
     * @return whether to store it for replay
     */
    boolean isCacheable(StoredResult result);
}
