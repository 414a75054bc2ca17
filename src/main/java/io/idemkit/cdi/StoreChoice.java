package io.idemkit.cdi;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.StoreKind;
import java.util.Optional;

/**
 * Which built-in store the application gets, decided once at deployment from {@code idemkit.store},
 * {@code idemkit.mongo.uri} and the application's MongoDB beans: the extension validates it and
 * checks the MongoDB lease rule against it, the producer makes what it says. {@code
 * idemkit.store=jdbc} always means the JDBC store, whatever else is configured; {@code auto} never
 * picks it, since an application's data source is there for its own data and using it for records
 * needs a table that only the application's owner should decide to create. An application's own
 * {@code IdempotencyStore} bean overrides the producer, and with it this choice.
 *
 * @param store what the producer makes
 * @param configuredMemory whether the in-memory store was asked for ({@code idemkit.store=memory})
 *     rather than fallen back to
 * @param severalMongoBeans whether MongoDB beans were there but ambiguous
 */
record StoreChoice(Store store, boolean configuredMemory, boolean severalMongoBeans) {

    /** What the producer makes. */
    enum Store {
        /** MongoDB with a client the store creates on {@code idemkit.mongo.uri}, and closes. */
        MONGO_ON_URI,
        /** MongoDB on the application's one {@code MongoDatabase} bean, never closed by us. */
        MONGO_ON_DATABASE_BEAN,
        /** MongoDB on the application's one {@code MongoClient} bean, never closed by us. */
        MONGO_ON_CLIENT_BEAN,
        /** The in-memory store. */
        MEMORY,
        /** The JDBC store, on the data source the extension found and checked at deployment. */
        JDBC
    }

    /** How many beans of a type the application has. */
    enum Beans {
        NONE,
        ONE,
        SEVERAL
    }

    /**
     * @param kind {@code idemkit.store}
     * @param uriSet whether {@code idemkit.mongo.uri} is set
     * @param databases the application's {@code MongoDatabase} beans
     * @param clients the application's {@code MongoClient} beans
     * @return the choice
     */
    static StoreChoice decide(StoreKind kind, boolean uriSet, Beans databases, Beans clients) {
        boolean several = databases == Beans.SEVERAL || clients == Beans.SEVERAL;
        if (kind == StoreKind.MEMORY) {
            return new StoreChoice(Store.MEMORY, true, several);
        }
        if (kind == StoreKind.JDBC) {
            return new StoreChoice(Store.JDBC, false, several);
        }
        if (uriSet) {
            return new StoreChoice(Store.MONGO_ON_URI, false, several);
        }
        if (databases == Beans.ONE) {
            return new StoreChoice(Store.MONGO_ON_DATABASE_BEAN, false, several);
        }
        if (clients == Beans.ONE) {
            return new StoreChoice(Store.MONGO_ON_CLIENT_BEAN, false, several);
        }
        return new StoreChoice(Store.MEMORY, false, several);
    }

    /**
     * @param kind {@code idemkit.store}
     * @return the deployment problem, when MongoDB was asked for and cannot be had
     */
    Optional<String> problem(StoreKind kind) {
        if (kind != StoreKind.MONGO || store != Store.MEMORY) {
            return Optional.empty();
        }
        return Optional.of(
                severalMongoBeans
                        ? "idemkit.store=mongo, but there are several MongoClient or MongoDatabase"
                                + " beans and no "
                                + ConfigKeys.MONGO_URI
                                + ": set it to choose."
                        : "idemkit.store=mongo needs "
                                + ConfigKeys.MONGO_URI
                                + ", or a MongoClient or MongoDatabase bean; none is there.");
    }

    /**
     * @return whether the producer makes a MongoDB store
     */
    boolean isMongo() {
        return store != Store.MEMORY && store != Store.JDBC;
    }
}
