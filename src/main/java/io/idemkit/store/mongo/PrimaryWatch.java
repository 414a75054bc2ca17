package io.idemkit.store.mongo;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerDescription;
import com.mongodb.connection.ServerType;
import com.mongodb.event.ClusterDescriptionChangedEvent;
import com.mongodb.event.ClusterListener;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Notices when the driver reports a new primary, so that the store measures the new primary's clock
 * before it stamps with the old one's offset. It is a driver {@link ClusterListener} on a client
 * the store creates; with an application's {@code MongoClient}, the store hands it the client's
 * current cluster description on each use ({@link #observe}) instead. With only a {@code
 * MongoDatabase} there is no cluster to watch, and the offset is re-measured on its other triggers.
 *
 * <p>Only a replica set's primary and a standalone server count. A sharded cluster has no primary
 * whose clock the store stamps with: {@code $$NOW} is the clock of whichever {@code mongos} routes
 * a command, and the driver spreads commands over them; the driver's own {@code isPrimary()} is
 * true for every healthy router. So on a sharded (or load-balanced) cluster this watch never fires:
 * the store relies on synchronized clocks there, and measures the offset on its other triggers. The
 * store also stops feeding it once the server said it is a {@code mongos} ({@link ServerKind}).
 * Thread-safe.
 */
final class PrimaryWatch implements ClusterListener {

    private final Runnable onNewPrimary;
    private final AtomicReference<ServerAddress> primary = new AtomicReference<>();

    /**
     * @param onNewPrimary what to do when the primary changes from one known member to another, or
     *     appears after none was known
     */
    PrimaryWatch(Runnable onNewPrimary) {
        this.onNewPrimary = Objects.requireNonNull(onNewPrimary, "onNewPrimary");
    }

    @Override
    public void clusterDescriptionChanged(ClusterDescriptionChangedEvent event) {
        observe(event.getNewDescription());
    }

    /** Compares the description's primary with the last one seen. */
    void observe(ClusterDescription description) {
        if (description.getType() == ClusterType.SHARDED
                || description.getType() == ClusterType.LOAD_BALANCED) {
            return;
        }
        Optional<ServerAddress> current = primaryOf(description);
        if (current.isEmpty()) {
            return; // an election in progress: wait for the new primary
        }
        ServerAddress previous = primary.getAndSet(current.get());
        if (previous != null && !previous.equals(current.get())) {
            onNewPrimary.run();
        }
    }

    private static Optional<ServerAddress> primaryOf(ClusterDescription description) {
        for (ServerDescription server : description.getServerDescriptions()) {
            if (server.isOk()
                    && (server.getType() == ServerType.REPLICA_SET_PRIMARY
                            || server.getType() == ServerType.STANDALONE)) {
                return Optional.of(server.getAddress());
            }
        }
        return Optional.empty();
    }
}
