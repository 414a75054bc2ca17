package io.idemkit.store;

import java.util.Objects;

/**
 * A store's driver: a class of it, whose absence from the application's class path means the driver
 * is not there, and the Maven artifact that brings it.
 *
 * @param probeClass the fully qualified name of a class of the driver
 * @param artifact its Maven coordinates, {@code groupId:artifactId}
 * @param name what the driver is called in a message, such as "the MongoDB driver"
 */
public record StoreDriver(String probeClass, String artifact, String name) {

    /** Checks that every component is there. */
    public StoreDriver {
        Objects.requireNonNull(probeClass, "probeClass");
        Objects.requireNonNull(artifact, "artifact");
        Objects.requireNonNull(name, "name");
    }

    /**
     * @param loader the class loader of the library, which sees the application's libraries
     * @return whether the driver is on the class path
     */
    public boolean present(ClassLoader loader) {
        try {
            Class.forName(probeClass, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @param why what asked for the store, such as {@code idemkit.store=mongo}
     * @return the deployment problem that names the missing artifact
     */
    public String missing(String why) {
        return why
                + ", which needs "
                + name
                + " on the application's class path: add "
                + artifact
                + " to the application (its jar in WEB-INF/lib), or choose another store."
                + " It is not there ("
                + probeClass
                + " not found).";
    }
}
