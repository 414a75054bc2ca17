package io.idemkit.store.redis;

import io.idemkit.config.ConfigValues;
import io.idemkit.config.DurationFormat;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreLease;
import io.idemkit.store.StoreResources;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The Redis store's wing ({@code idemkit.store=redis}, or {@code auto} with {@code
 * idemkit.redis.uri} or {@code idemkit.redis.nodes}): its keys ({@code idemkit.redis.*}), its lease
 * rule, and its deployment check of the servers' eviction policy. This class names no Jedis type,
 * so that it loads in an application without Jedis; what needs Jedis is in {@link
 * RedisStoreOpening} and the store, reached only when Jedis is there.
 */
public final class RedisStoreFactory implements StoreFactory {

    private static final System.Logger LOG = System.getLogger(RedisStoreFactory.class.getName());

    private static final StoreDriver DRIVER =
            new StoreDriver("redis.clients.jedis.UnifiedJedis", "redis.clients:jedis", "Jedis");

    private RedisStoreSettings settings;
    private RedisIdempotencyStore opened;

    /** For the service loader. */
    public RedisStoreFactory() {}

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Set<String> keys() {
        return RedisKeys.all();
    }

    @Override
    public Optional<String> howToChoose() {
        return Optional.of(
                "set " + RedisKeys.URI + " (or " + RedisKeys.NODES + " for a Redis Cluster)");
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.of(DRIVER);
    }

    @Override
    public boolean askedForByConfiguration(ConfigValues values) {
        return values.text(RedisKeys.URI).isPresent() || values.text(RedisKeys.NODES).isPresent();
    }

    @Override
    public void read(ConfigValues values) {
        settings = RedisStoreSettings.read(values);
    }

    @Override
    public boolean pickedByAuto(StoreResources resources) {
        return settings.configured();
    }

    @Override
    public Optional<String> unavailable(StoreResources resources) {
        return settings.configured()
                ? Optional.empty()
                : Optional.of(
                        "idemkit.store=redis needs "
                                + RedisKeys.URI
                                + " (one server) or "
                                + RedisKeys.NODES
                                + " (a Redis Cluster); neither is set.");
    }

    /**
     * A lease must be at least twice {@code idemkit.redis.timeout}: the heartbeat renews every
     * third of the lease, counted from when the claim returned, and a renewal that takes the whole
     * timeout must still land while the lease holds. Every lease is stamped on the server as the
     * script runs, so a slow claim never lands spent.
     */
    @Override
    public List<String> leaseProblems(List<StoreLease> leases) {
        Duration minimum = settings.timeout().multipliedBy(2);
        return leases.stream()
                .filter(l -> l.lease().compareTo(minimum) < 0)
                .map(
                        l ->
                                "Invalid "
                                        + l.where()
                                        + ": with the Redis store a lease must be at least 2 × "
                                        + RedisKeys.TIMEOUT
                                        + " = "
                                        + DurationFormat.format(minimum)
                                        + " ("
                                        + RedisKeys.TIMEOUT
                                        + "="
                                        + DurationFormat.format(settings.timeout())
                                        + "), or a renewal that takes the whole timeout can land"
                                        + " after the lease ran out and let a duplicate run. Set"
                                        + " it to "
                                        + DurationFormat.format(minimum)
                                        + " or more, or lower "
                                        + RedisKeys.TIMEOUT
                                        + ".")
                .toList();
    }

    @Override
    public Optional<String> inTransactionProblem() {
        return Optional.of(
                "the store is Redis, and only the JDBC store keeps its records in the business"
                        + " database");
    }

    /**
     * Makes the store and asks the servers whether they may evict keys (C16): a server that may is
     * refused, or warned about under {@code idemkit.redis.eviction-check=warn}. A server that
     * cannot be asked (unreachable now, or {@code CONFIG} disabled) is warned about: the deployment
     * does not depend on Redis being up.
     */
    @Override
    public List<String> open(StoreResources resources, IdemkitConfig config) {
        opened = RedisStoreOpening.open(settings);
        RedisStoreOpening.EvictionFindings found;
        try {
            found = opened.evictionFindings();
        } catch (RuntimeException e) {
            found =
                    new RedisStoreOpening.EvictionFindings(
                            List.of(), List.of(String.valueOf(e.getMessage())));
        }
        if (!found.unknown().isEmpty()) {
            LOG.log(
                    Level.WARNING,
                    "idemkit could not check whether Redis may evict its keys ("
                            + String.join("; ", found.unknown())
                            + "). Make sure maxmemory-policy is noeviction, or that maxmemory is"
                            + " unset: an evicted claim lets a duplicate run again.");
        }
        if (found.evicting().isEmpty()) {
            return List.of();
        }
        String problem =
                "Redis may evict idemkit's keys when it is full: "
                        + String.join(", ", found.evicting())
                        + ". An evicted claim or result lets a duplicate run again. Set"
                        + " maxmemory-policy noeviction (Redis then refuses new claims when full,"
                        + " and idemkit answers 503), or give idemkit a Redis of its own; or set "
                        + RedisKeys.EVICTION_CHECK
                        + "=warn to accept the risk.";
        if (settings.evictionCheck() == RedisStoreSettings.EvictionCheck.WARN) {
            LOG.log(Level.WARNING, problem);
            return List.of();
        }
        opened.close();
        opened = null;
        return List.of(problem);
    }

    @Override
    public IdempotencyStore store(StoreResources resources, IdemkitConfig config) {
        RedisIdempotencyStore store = opened != null ? opened : RedisStoreOpening.open(settings);
        opened = null;
        return store;
    }
}
