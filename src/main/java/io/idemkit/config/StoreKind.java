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
    MEMORY,
    /**
     * The JDBC store on the data source {@code idemkit.jdbc.datasource} names, or on the
     * application's one {@code DataSource} bean; a deployment error when neither is there. Never
     * chosen by {@link #AUTO}.
     */
    JDBC
}
