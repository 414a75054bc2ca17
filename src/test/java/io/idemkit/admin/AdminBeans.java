package io.idemkit.admin;

import io.idemkit.spi.IdempotencyStore;

/** The admin bean as CDI would make it, for the admin HTTP API's tests in another package. */
public final class AdminBeans {

    private AdminBeans() {}

    /**
     * @param store the store the bean reads and writes
     * @return the bean over that store
     */
    public static IdempotencyAdmin over(IdempotencyStore store) {
        return new IdempotencyAdmin(store);
    }
}
