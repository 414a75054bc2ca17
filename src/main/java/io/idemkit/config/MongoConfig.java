package io.idemkit.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code idemkit.mongo.*} keys, validated.
 *
 * @param uri the connection string, or {@code null} when unset
 * @param database the database name
 * @param collection the collection name
 * @param timeout the bound on each operation, positive
 * @param writeConcern {@code majority}, {@code acknowledged}, a number, or {@code null} for the
 *     URI's
 * @param leaseGrace how long an expired record stays before the TTL index may delete it
 */
public record MongoConfig(
        String uri,
        String database,
        String collection,
        Duration timeout,
        String writeConcern,
        Duration leaseGrace) {

    /** Validates the always-present components. */
    public MongoConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(collection, "collection");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(leaseGrace, "leaseGrace");
    }

    /**
     * @return the connection string, if configured
     */
    public Optional<String> connectionString() {
        return Optional.ofNullable(uri);
    }
}
