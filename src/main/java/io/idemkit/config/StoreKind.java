package io.idemkit.config;

/** Which store the library uses (key {@code idemkit.store}). */
public enum StoreKind {
    /**
     * MongoDB when a URI or a client bean is there, otherwise the in-memory store with a warning.
     */
    AUTO,
    /** MongoDB; a deployment error when neither a URI nor a client bean is there. */
    MONGO,
    /** The in-memory store, even when MongoDB is configured. */
    MEMORY
}
