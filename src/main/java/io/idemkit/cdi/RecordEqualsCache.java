package io.idemkit.cdi;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.runtime.ObjectMethods;

/**
 * Lets go of the application's classes that the JDK's record support still holds when the
 * application stops, so that its class loader can be collected after an undeployment (C15.1).
 *
 * <p>A record's {@code equals} is linked by {@link ObjectMethods}, which adapts one method handle
 * of its own to the record's type. On Java 17 a method handle keeps its last adaptation in a strong
 * one-element cache (JDK-8078641, fixed in Java 18, where an adaptation to a type of another class
 * loader is held only softly), so the last record class compared in the JVM stays reachable from a
 * JDK class: an application with idemkit, whose records are compared on every request, stayed in
 * memory once undeployed, until some other record type was compared (seen in heap dumps on Open
 * Liberty: {@code ObjectMethods.OBJECT_EQ}, its {@code asTypeCache}, a {@code MethodType} with
 * idemkit's {@code ClaimToken}). Linking an {@code equals} for a JDK type ({@link String}) replaces
 * that entry. It is harmless where the JDK no longer needs it, and never fails a shutdown.
 */
final class RecordEqualsCache {

    private static final System.Logger LOG = System.getLogger(RecordEqualsCache.class.getName());

    private RecordEqualsCache() {}

    /**
     * Replaces the JDK's cached adaptation of its record {@code equals} with one of its own types.
     */
    static void release() {
        try {
            ObjectMethods.bootstrap(
                    MethodHandles.lookup(), "equals", MethodHandle.class, String.class, "");
        } catch (Throwable e) { // an Error too: nothing here may stop the application's shutdown
            LOG.log(
                    Level.DEBUG,
                    "Could not release the JDK's cached record equals; an undeployed application"
                            + " may stay in memory until another record is compared",
                    e);
        }
    }
}
