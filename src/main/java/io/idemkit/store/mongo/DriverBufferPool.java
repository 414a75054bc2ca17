package io.idemkit.store.mongo;

import java.lang.System.Logger.Level;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Stops the MongoDB driver's buffer pool pruner when the store closes, so that an undeployed
 * application leaves no thread of its driver behind (C15.1).
 *
 * <p>The driver (5.x) keeps one buffer pool for every client of its class loader ({@code
 * PowerOfTwoBufferPool.DEFAULT}), with a thread that prunes it ({@code
 * BufferPoolPruner-1-thread-1}) started when the pool's class loads and never stopped, not even
 * when the last client closes (the driver's JAVA-5643). That thread kept the application's class
 * loader, and everything its classes hold, in the server after an undeployment (seen in heap dumps
 * on Open Liberty). The driver offers no public way to stop it, so this calls the pool's own {@code
 * disablePruning()}; only when the driver is the application's own (loaded by this library's class
 * loader, both in {@code WEB-INF/lib}): a driver that a server shares between applications keeps
 * its pruner. Without the pruner the pool keeps working; its idle buffers are no longer released.
 * Nothing here fails the store's closing: a driver without that pool (another version) is left as
 * it is.
 */
final class DriverBufferPool {

    private static final System.Logger LOG = System.getLogger(DriverBufferPool.class.getName());
    private static final String POOL = "com.mongodb.internal.connection.PowerOfTwoBufferPool";

    private DriverBufferPool() {}

    /** Stops the pruner of the application's driver, if it has one. Idempotent. */
    static void stopPruner() {
        ClassLoader own = DriverBufferPool.class.getClassLoader();
        try {
            Class<?> pool = Class.forName(POOL, false, own);
            if (pool.getClassLoader() != own) {
                return;
            }
            Field shared = pool.getField("DEFAULT");
            Method disable = pool.getDeclaredMethod("disablePruning");
            disable.setAccessible(true);
            disable.invoke(shared.get(null));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(
                    Level.DEBUG,
                    "Could not stop the MongoDB driver's buffer pool pruner; its thread may keep"
                            + " the application in memory after it is undeployed",
                    e);
        }
    }
}
