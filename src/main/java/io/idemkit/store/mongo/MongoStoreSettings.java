package io.idemkit.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.WriteConcern;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The settings of a {@link MongoIdempotencyStore}, one component per configuration key ({@code
 * idemkit.mongo.*}). The compact constructor validates every component and fails with a message
 * that names the key, the value and the rule, such as {@code Invalid idemkit.mongo.timeout=-5s:
 * must be positive}. Instances are immutable and thread-safe.
 *
 * @param uri {@code idemkit.mongo.uri}: a {@code mongodb://} or {@code mongodb+srv://} connection
 *     string, or {@code null} when the store is given a {@code MongoClient} or {@code
 *     MongoDatabase}. Its path (a database name) and {@code timeoutMS} are ignored: {@code
 *     database} and {@code timeout} below win. Credentials in it never appear in messages.
 * @param database {@code idemkit.mongo.database}, default {@value #DEFAULT_DATABASE}: a MongoDB
 *     database name (1 to 63 bytes, none of {@code / \ . " $ * < > : | ?}, no space)
 * @param collection {@code idemkit.mongo.collection}, default {@value #DEFAULT_COLLECTION}: a
 *     collection name (no {@code $}, not starting with {@code system.}); the store's only
 *     collection
 * @param timeout {@code idemkit.mongo.timeout}, default 5 s: the bound on each store operation,
 *     server selection and connecting included, at least 1 ms. A dead server fails within it.
 * @param writeConcern {@code idemkit.mongo.write-concern}: {@code majority}, {@code acknowledged}
 *     or a number of members, 1 or more; {@code null} keeps the connection string's (or the
 *     supplied client's) write concern. Use {@code majority} on replica sets.
 * @param leaseGrace {@code idemkit.mongo.lease-grace}, default 60 s, at least {@link
 *     #MINIMUM_LEASE_GRACE 5 s}: how long past its lease or retention a record stays before the TTL
 *     index may delete it, so that a lapsed claim is still seen, and reported, as a reclaimed
 *     lease. The TTL monitor judges {@code expire_at} by the clock of the shard's primary, which is
 *     not the clock that stamped it (another {@code mongos}, or the primary before a failover): the
 *     grace must exceed the skew between them, or TTL may delete a live claim
 */
public record MongoStoreSettings(
        String uri,
        String database,
        String collection,
        Duration timeout,
        String writeConcern,
        Duration leaseGrace) {

    /** The default database name. */
    public static final String DEFAULT_DATABASE = "idemkit";

    /** The default collection name, shared with idemkit's Python store. */
    public static final String DEFAULT_COLLECTION = "idemkit_records";

    /** The default bound on one store operation: 5 seconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /** The default lease grace before the TTL index may delete a record: 60 seconds. */
    public static final Duration DEFAULT_LEASE_GRACE = Duration.ofSeconds(60);

    /**
     * The shortest lease grace: 5 seconds. It bounds the clock skew the store tolerates between the
     * server that stamped a record and the one whose TTL monitor deletes it; a grace of zero
     * tolerates none. It is above the store's 2 s margin for its own clock estimate.
     */
    public static final Duration MINIMUM_LEASE_GRACE = Duration.ofSeconds(5);

    private static final String KEY_PREFIX = "idemkit.mongo.";
    private static final Pattern POSITIVE_NUMBER = Pattern.compile("[0-9]+");
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^@/]*@");
    private static final String FORBIDDEN_IN_DATABASE = "/\\.\"$*<>:|? ";

    /** Validates every component. */
    public MongoStoreSettings {
        if (uri != null) {
            validateUri(uri);
        }
        validateDatabase(database);
        validateCollection(collection);
        if (timeout == null) {
            throw invalid("timeout", "null", "must be set");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw invalid("timeout", format(timeout), "must be positive");
        }
        if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw invalid("timeout", format(timeout), "must be at least 1ms");
        }
        if (writeConcern != null) {
            parseWriteConcern(writeConcern);
        }
        if (leaseGrace == null) {
            throw invalid("lease-grace", "null", "must be set");
        }
        if (leaseGrace.isNegative()) {
            throw invalid("lease-grace", format(leaseGrace), "must not be negative");
        }
        if (leaseGrace.compareTo(MINIMUM_LEASE_GRACE) < 0) {
            throw invalid(
                    "lease-grace",
                    format(leaseGrace),
                    "must be at least "
                            + format(MINIMUM_LEASE_GRACE)
                            + ": the TTL monitor deletes a record on the shard primary's clock,"
                            + " which may run ahead of the clock that stamped it (another mongos,"
                            + " or the primary before a failover), and a shorter grace lets it"
                            + " delete a live claim");
        }
    }

    /**
     * Settings with every default and no connection string, for a store given a {@code MongoClient}
     * or {@code MongoDatabase}.
     *
     * @return the default settings
     */
    public static MongoStoreSettings defaults() {
        return new MongoStoreSettings(
                null,
                DEFAULT_DATABASE,
                DEFAULT_COLLECTION,
                DEFAULT_TIMEOUT,
                null,
                DEFAULT_LEASE_GRACE);
    }

    /**
     * Settings with every default and the given connection string.
     *
     * @param uri a {@code mongodb://} or {@code mongodb+srv://} connection string
     * @return the settings
     * @throws IllegalArgumentException if {@code uri} is not a valid connection string
     */
    public static MongoStoreSettings forUri(String uri) {
        return defaults().withUri(Objects.requireNonNull(uri, "uri"));
    }

    /**
     * @param newUri the connection string, or {@code null}
     * @return a copy with {@code uri} replaced
     */
    public MongoStoreSettings withUri(String newUri) {
        return new MongoStoreSettings(
                newUri, database, collection, timeout, writeConcern, leaseGrace);
    }

    /**
     * @param newDatabase the database name
     * @return a copy with {@code database} replaced
     */
    public MongoStoreSettings withDatabase(String newDatabase) {
        return new MongoStoreSettings(
                uri, newDatabase, collection, timeout, writeConcern, leaseGrace);
    }

    /**
     * @param newCollection the collection name
     * @return a copy with {@code collection} replaced
     */
    public MongoStoreSettings withCollection(String newCollection) {
        return new MongoStoreSettings(
                uri, database, newCollection, timeout, writeConcern, leaseGrace);
    }

    /**
     * @param newTimeout the per-operation bound
     * @return a copy with {@code timeout} replaced
     */
    public MongoStoreSettings withTimeout(Duration newTimeout) {
        return new MongoStoreSettings(
                uri, database, collection, newTimeout, writeConcern, leaseGrace);
    }

    /**
     * @param newWriteConcern {@code majority}, {@code acknowledged}, a number, or {@code null}
     * @return a copy with {@code writeConcern} replaced
     */
    public MongoStoreSettings withWriteConcern(String newWriteConcern) {
        return new MongoStoreSettings(
                uri, database, collection, timeout, newWriteConcern, leaseGrace);
    }

    /**
     * @param newLeaseGrace the grace before TTL deletion
     * @return a copy with {@code leaseGrace} replaced
     */
    public MongoStoreSettings withLeaseGrace(Duration newLeaseGrace) {
        return new MongoStoreSettings(
                uri, database, collection, timeout, writeConcern, newLeaseGrace);
    }

    /**
     * @return the write concern to apply, empty to keep the client's own
     */
    public Optional<WriteConcern> driverWriteConcern() {
        return writeConcern == null
                ? Optional.empty()
                : Optional.of(parseWriteConcern(writeConcern));
    }

    @Override
    public String toString() {
        // The generated form would print the URI's password.
        return "MongoStoreSettings[uri="
                + (uri == null ? "null" : redact(uri))
                + ", database="
                + database
                + ", collection="
                + collection
                + ", timeout="
                + format(timeout)
                + ", writeConcern="
                + writeConcern
                + ", leaseGrace="
                + format(leaseGrace)
                + "]";
    }

    private static void validateUri(String uri) {
        if (!uri.startsWith("mongodb://") && !uri.startsWith("mongodb+srv://")) {
            // Without a scheme there is no telling where a password would be: show nothing.
            throw new IllegalArgumentException(
                    "Invalid "
                            + KEY_PREFIX
                            + "uri (value not shown, it may hold a password): must start with"
                            + " mongodb:// or mongodb+srv://");
        }
        String shown = redact(uri);
        try {
            new ConnectionString(uri);
        } catch (IllegalArgumentException e) {
            throw invalid(
                    "uri",
                    shown,
                    "must be a valid MongoDB connection string (" + redact(e.getMessage()) + ")");
        }
    }

    private static void validateDatabase(String database) {
        if (database == null || database.isEmpty()) {
            throw invalid("database", String.valueOf(database), "must not be empty");
        }
        for (char c : database.toCharArray()) {
            if (c == 0 || FORBIDDEN_IN_DATABASE.indexOf(c) >= 0) {
                throw invalid(
                        "database",
                        database,
                        "must not contain a space, a NUL or any of / \\ . \" $ * < > : | ?");
            }
        }
        if (database.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 63) {
            throw invalid("database", database, "must be at most 63 bytes");
        }
    }

    private static void validateCollection(String collection) {
        if (collection == null || collection.isEmpty()) {
            throw invalid("collection", String.valueOf(collection), "must not be empty");
        }
        if (collection.indexOf('$') >= 0 || collection.indexOf('\0') >= 0) {
            throw invalid("collection", collection, "must not contain $ or a NUL");
        }
        if (collection.startsWith("system.")) {
            throw invalid("collection", collection, "must not start with system.");
        }
    }

    private static WriteConcern parseWriteConcern(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("majority")) {
            return WriteConcern.MAJORITY;
        }
        if (v.equals("acknowledged")) {
            return WriteConcern.ACKNOWLEDGED;
        }
        if (POSITIVE_NUMBER.matcher(v).matches()) {
            int w;
            try {
                w = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                w = -1;
            }
            if (w >= 1) {
                return new WriteConcern(w);
            }
        }
        // w:0 is refused on purpose: an unacknowledged write cannot tell whether a fenced
        // complete or release matched.
        throw invalid(
                "write-concern", value, "must be majority, acknowledged or a number of 1 or more");
    }

    private static IllegalArgumentException invalid(String key, String value, String rule) {
        return new IllegalArgumentException(
                "Invalid " + KEY_PREFIX + key + "=" + value + ": " + rule);
    }

    static String redact(String text) {
        return text == null ? null : USER_INFO.matcher(text).replaceAll("***@");
    }

    /** Formats a duration the way configuration spells it: {@code 5s}, {@code 250ms}. */
    static String format(Duration d) {
        if (d.getNano() == 0) {
            return d.getSeconds() + "s";
        }
        if (d.getNano() % 1_000_000 == 0) {
            return d.toMillis() + "ms";
        }
        return d.toString();
    }
}
