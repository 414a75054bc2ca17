package io.idemkit.testsupport;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.IdempotencyStore;
import java.lang.reflect.Proxy;

/**
 * A store that can go down: while it is down every call but {@code name()} throws {@link
 * IdempotencyStorageException}, with a message naming an address, as a driver's would; otherwise
 * every call reaches the store it wraps.
 */
public final class OutageStore {

    /** What the failures say; an answer to a client must not repeat it. */
    public static final String FAILURE = "Timed out connecting to 10.1.2.3:27017";

    private final IdempotencyStore store;
    private volatile boolean down;

    /**
     * @param delegate the store while it is up
     */
    public OutageStore(IdempotencyStore delegate) {
        this.store =
                (IdempotencyStore)
                        Proxy.newProxyInstance(
                                IdempotencyStore.class.getClassLoader(),
                                new Class<?>[] {IdempotencyStore.class},
                                (proxy, method, args) -> {
                                    if (down
                                            && method.getDeclaringClass() == IdempotencyStore.class
                                            && !method.getName().equals("name")) {
                                        throw new IdempotencyStorageException(FAILURE);
                                    }
                                    return SpiDefaultsStore.forward(delegate, method, args);
                                });
    }

    /**
     * @return the store, up or down as this says
     */
    public IdempotencyStore store() {
        return store;
    }

    /** From now on, every call fails. */
    public void goDown() {
        down = true;
    }

    /** From now on, calls reach the store again. */
    public void comeBack() {
        down = false;
    }
}
