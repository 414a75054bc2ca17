package io.idemkit.store.redis;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.redis.*} keys of the Redis store, with their defaults: declared in its wing,
 * so that the store brings its keys with it ({@link #all()}, which its factory hands the
 * unknown-key check).
 */
public final class RedisKeys {

    /**
     * One Redis server (or a primary behind a proxy): {@code
     * redis://[user:password@]host:port[/db]}, {@code rediss://} for TLS. Unset, with {@link
     * #NODES} unset too, means no Redis.
     */
    public static final String URI = ConfigKeys.PREFIX + "redis.uri";

    /** A Redis Cluster: some of its nodes, {@code host:port,host:port}; the rest are discovered. */
    public static final String NODES = ConfigKeys.PREFIX + "redis.nodes";

    /** The user to authenticate as (Redis 6 ACL); overrides the URI's. */
    public static final String USER = ConfigKeys.PREFIX + "redis.user";

    /** The password; overrides the URI's. Give it through a secret configuration source. */
    public static final String PASSWORD = ConfigKeys.PREFIX + "redis.password";

    /** Whether to connect over TLS, with the JVM's trust store ({@code rediss://} implies it). */
    public static final String TLS = ConfigKeys.PREFIX + "redis.tls";

    /** Default of {@link #TLS}. */
    public static final String TLS_DEFAULT = "false";

    /** The bound on connecting and on each command, and on waiting for a pooled connection. */
    public static final String TIMEOUT = ConfigKeys.PREFIX + "redis.timeout";

    /** Default of {@link #TIMEOUT}. */
    public static final String TIMEOUT_DEFAULT = "5s";

    /** The most connections the store opens to one server. */
    public static final String POOL_SIZE = ConfigKeys.PREFIX + "redis.pool-size";

    /** Default of {@link #POOL_SIZE}. */
    public static final String POOL_SIZE_DEFAULT = "32";

    /** What every key the store writes starts with. */
    public static final String KEY_PREFIX = ConfigKeys.PREFIX + "redis.key-prefix";

    /** Default of {@link #KEY_PREFIX}. */
    public static final String KEY_PREFIX_DEFAULT = "idemkit:";

    /** How long a claim whose lease ran out stays before Redis expires it (a duration). */
    public static final String LEASE_GRACE = ConfigKeys.PREFIX + "redis.lease-grace";

    /** Default of {@link #LEASE_GRACE}. */
    public static final String LEASE_GRACE_DEFAULT = "60s";

    /**
     * How many replicas must acknowledge a completion before it counts as done ({@code WAIT}); 0
     * does not wait.
     */
    public static final String WAIT_REPLICAS = ConfigKeys.PREFIX + "redis.wait-replicas";

    /** Default of {@link #WAIT_REPLICAS}. */
    public static final String WAIT_REPLICAS_DEFAULT = "0";

    /** The longest a completion waits for {@link #WAIT_REPLICAS} replicas. */
    public static final String WAIT_TIMEOUT = ConfigKeys.PREFIX + "redis.wait-timeout";

    /** Default of {@link #WAIT_TIMEOUT}. */
    public static final String WAIT_TIMEOUT_DEFAULT = "1s";

    /**
     * Whether completions are announced over Pub/Sub, so that duplicates waiting on other nodes
     * wake at once instead of at their next poll.
     */
    public static final String NOTIFICATIONS = ConfigKeys.PREFIX + "redis.notifications";

    /** Default of {@link #NOTIFICATIONS}. */
    public static final String NOTIFICATIONS_DEFAULT = "true";

    /**
     * The longest pause between two reads of a duplicate that waits: it pauses 10 ms, doubling up
     * to this; an announcement ends a pause at once.
     */
    public static final String POLL_LONGEST_PAUSE = ConfigKeys.PREFIX + "redis.poll-longest-pause";

    /** Default of {@link #POLL_LONGEST_PAUSE}. */
    public static final String POLL_LONGEST_PAUSE_DEFAULT = "500ms";

    /**
     * What the deployment does when the server may evict keys ({@code maxmemory} set with a policy
     * other than {@code noeviction}): {@code refuse} or {@code warn}.
     */
    public static final String EVICTION_CHECK = ConfigKeys.PREFIX + "redis.eviction-check";

    /** Default of {@link #EVICTION_CHECK}. */
    public static final String EVICTION_CHECK_DEFAULT = "refuse";

    private RedisKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(RedisKeys.class);
    }
}
