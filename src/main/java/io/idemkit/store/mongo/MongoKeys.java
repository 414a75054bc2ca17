package io.idemkit.store.mongo;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.mongo.*} keys of the MongoDB store, with their defaults: declared in its wing,
 * so that a store brings its keys with it ({@link #all()}, which its factory hands the unknown-key
 * check).
 */
public final class MongoKeys {

    /** The MongoDB connection string; unset means no MongoDB unless a client bean exists. */
    public static final String URI = ConfigKeys.PREFIX + "mongo.uri";

    /** The MongoDB database. */
    public static final String DATABASE = ConfigKeys.PREFIX + "mongo.database";

    /** Default of {@link #DATABASE}. */
    public static final String DATABASE_DEFAULT = "idemkit";

    /** The MongoDB collection. */
    public static final String COLLECTION = ConfigKeys.PREFIX + "mongo.collection";

    /** Default of {@link #COLLECTION}. */
    public static final String COLLECTION_DEFAULT = "idemkit_records";

    /** The bound on each MongoDB operation (a duration). */
    public static final String TIMEOUT = ConfigKeys.PREFIX + "mongo.timeout";

    /** Default of {@link #TIMEOUT}. */
    public static final String TIMEOUT_DEFAULT = "5s";

    /**
     * The MongoDB write concern: {@code majority}, {@code acknowledged} or a number; unset keeps
     * the URI's.
     */
    public static final String WRITE_CONCERN = ConfigKeys.PREFIX + "mongo.write-concern";

    /** How long an expired record stays before the TTL index may delete it (a duration). */
    public static final String LEASE_GRACE = ConfigKeys.PREFIX + "mongo.lease-grace";

    /** Default of {@link #LEASE_GRACE}. */
    public static final String LEASE_GRACE_DEFAULT = "60s";

    private MongoKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(MongoKeys.class);
    }
}
