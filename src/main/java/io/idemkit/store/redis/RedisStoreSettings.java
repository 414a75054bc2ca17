package io.idemkit.store.redis;

import io.idemkit.config.ConfigValues;
import io.idemkit.config.DurationFormat;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The Redis store's settings ({@code idemkit.redis.*}, {@link RedisKeys}), checked as they are
 * read: every broken key is a deployment problem of its own, in the house format.
 *
 * @param uri one server, {@code redis://} or {@code rediss://}; {@code null} when {@code nodes} is
 *     given or Redis is not configured
 * @param nodes some nodes of a Redis Cluster as {@code host:port}; empty for one server
 * @param user the user to authenticate as, or {@code null} (the URI's, if any)
 * @param password the password, or {@code null} (the URI's, if any)
 * @param tls whether to connect over TLS ({@code rediss://} implies it)
 * @param timeout the bound on connecting, on each command, and on waiting for a pooled connection
 * @param poolSize the most connections to one server
 * @param keyPrefix what every key the store writes starts with
 * @param leaseGrace how long a claim whose lease ran out stays before Redis expires it
 * @param waitReplicas how many replicas must acknowledge a completion; 0 does not wait
 * @param waitTimeout the longest a completion waits for them
 * @param notifications whether completions are announced over Pub/Sub
 * @param pollLongestPause the longest pause between two reads of a waiting duplicate
 * @param evictionCheck what the deployment does when the server may evict keys
 */
public record RedisStoreSettings(
        String uri,
        List<String> nodes,
        String user,
        String password,
        boolean tls,
        Duration timeout,
        int poolSize,
        String keyPrefix,
        Duration leaseGrace,
        int waitReplicas,
        Duration waitTimeout,
        boolean notifications,
        Duration pollLongestPause,
        EvictionCheck evictionCheck) {

    /** What the deployment does when the server may evict keys (C16). */
    public enum EvictionCheck {
        /** The deployment fails, saying why and how to fix it. */
        REFUSE,
        /** The deployment goes on, with a warning. */
        WARN
    }

    /** Checks every component's presence. */
    public RedisStoreSettings {
        nodes = List.copyOf(Objects.requireNonNull(nodes, "nodes"));
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(leaseGrace, "leaseGrace");
        Objects.requireNonNull(waitTimeout, "waitTimeout");
        Objects.requireNonNull(pollLongestPause, "pollLongestPause");
        Objects.requireNonNull(evictionCheck, "evictionCheck");
    }

    /**
     * Settings for one server at {@code uri}, every other setting at its default: for tests and
     * programmatic use.
     *
     * @param uri {@code redis://host:port}
     * @return the settings
     */
    public static RedisStoreSettings forUri(String uri) {
        return defaults().withUri(uri);
    }

    /**
     * Settings for a Redis Cluster, every other setting at its default.
     *
     * @param nodes some of its nodes, {@code host:port}
     * @return the settings
     */
    public static RedisStoreSettings forNodes(List<String> nodes) {
        return defaults().withNodes(nodes);
    }

    private static RedisStoreSettings defaults() {
        return new Parts().build();
    }

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; defaults in place of broken keys (the caller throws before using them)
     */
    public static RedisStoreSettings read(ConfigValues values) {
        RedisStoreSettings s = defaults();
        s =
                values.text(RedisKeys.URI)
                        .map(t -> values.apply(defaults(), t, RedisStoreSettings::withUri))
                        .orElse(s);
        RedisStoreSettings base = s;
        s =
                values.text(RedisKeys.NODES)
                        .map(t -> values.apply(base, t, RedisStoreSettings::withNodeList))
                        .orElse(s);
        if (values.text(RedisKeys.URI).isPresent() && values.text(RedisKeys.NODES).isPresent()) {
            values.problem(
                    "Invalid "
                            + RedisKeys.NODES
                            + ": "
                            + RedisKeys.URI
                            + " is set too; set "
                            + RedisKeys.URI
                            + " for one server or "
                            + RedisKeys.NODES
                            + " for a Redis Cluster, not both");
        }
        // A broken key is recorded in values and leaves its default here.
        Parts p = new Parts(s);
        p.user = values.text(RedisKeys.USER).orElse(null);
        p.password = values.text(RedisKeys.PASSWORD).orElse(null);
        p.tls = values.bool(RedisKeys.TLS, RedisKeys.TLS_DEFAULT);
        p.timeout =
                Objects.requireNonNullElse(
                        values.positive(RedisKeys.TIMEOUT, RedisKeys.TIMEOUT_DEFAULT), p.timeout);
        int pool = values.wholeNumber(RedisKeys.POOL_SIZE, RedisKeys.POOL_SIZE_DEFAULT, 10_000);
        p.poolSize = pool > 0 ? pool : p.poolSize;
        p.keyPrefix =
                Objects.requireNonNullElse(
                        values.value(
                                RedisKeys.KEY_PREFIX,
                                RedisKeys.KEY_PREFIX_DEFAULT,
                                RedisStoreSettings::prefix),
                        p.keyPrefix);
        p.leaseGrace =
                Objects.requireNonNullElse(
                        values.notNegative(RedisKeys.LEASE_GRACE, RedisKeys.LEASE_GRACE_DEFAULT),
                        p.leaseGrace);
        p.waitReplicas =
                Objects.requireNonNullElse(
                        values.value(
                                RedisKeys.WAIT_REPLICAS,
                                RedisKeys.WAIT_REPLICAS_DEFAULT,
                                RedisStoreSettings::replicas),
                        p.waitReplicas);
        p.waitTimeout =
                Objects.requireNonNullElse(
                        values.positive(RedisKeys.WAIT_TIMEOUT, RedisKeys.WAIT_TIMEOUT_DEFAULT),
                        p.waitTimeout);
        p.notifications = values.bool(RedisKeys.NOTIFICATIONS, RedisKeys.NOTIFICATIONS_DEFAULT);
        p.pollLongestPause =
                Objects.requireNonNullElse(
                        values.positive(
                                RedisKeys.POLL_LONGEST_PAUSE, RedisKeys.POLL_LONGEST_PAUSE_DEFAULT),
                        p.pollLongestPause);
        p.evictionCheck =
                Objects.requireNonNullElse(
                        values.enumValue(
                                RedisKeys.EVICTION_CHECK,
                                RedisKeys.EVICTION_CHECK_DEFAULT,
                                EvictionCheck.class),
                        p.evictionCheck);
        return p.build();
    }

    /**
     * @param uri {@code redis://} or {@code rediss://} with a host
     * @return these settings for one server at {@code uri}
     * @throws IllegalArgumentException naming the key when the URI is not one
     */
    public RedisStoreSettings withUri(String uri) {
        String checked = checkUri(uri);
        return change(
                p -> {
                    p.uri = checked;
                    p.nodes = List.of();
                });
    }

    /**
     * @param nodes some nodes of a Redis Cluster, {@code host:port}
     * @return these settings for that cluster
     * @throws IllegalArgumentException naming the key when a node is not {@code host:port}
     */
    public RedisStoreSettings withNodes(List<String> nodes) {
        return withNodeList(String.join(",", nodes));
    }

    private RedisStoreSettings withNodeList(String text) {
        List<String> parsed = new ArrayList<>();
        for (String node : text.split(",")) {
            parsed.add(checkNode(node.strip(), text));
        }
        return change(
                p -> {
                    p.uri = null;
                    p.nodes = parsed;
                });
    }

    /**
     * @param waitReplicas how many replicas must acknowledge a completion
     * @param waitTimeout the longest a completion waits for them
     * @return these settings with {@code WAIT} on completion
     */
    public RedisStoreSettings withWait(int waitReplicas, Duration waitTimeout) {
        return change(
                p -> {
                    p.waitReplicas = waitReplicas;
                    p.waitTimeout = waitTimeout;
                });
    }

    /**
     * @param timeout the bound on connecting and on each command
     * @return these settings with that bound
     */
    public RedisStoreSettings withTimeout(Duration timeout) {
        return change(p -> p.timeout = timeout);
    }

    /**
     * @param notifications whether completions are announced over Pub/Sub
     * @return these settings so
     */
    public RedisStoreSettings withNotifications(boolean notifications) {
        return change(p -> p.notifications = notifications);
    }

    /**
     * @param keyPrefix what every key the store writes starts with
     * @return these settings so
     */
    public RedisStoreSettings withKeyPrefix(String keyPrefix) {
        String checked = prefix(keyPrefix);
        return change(p -> p.keyPrefix = checked);
    }

    private RedisStoreSettings change(Consumer<Parts> edit) {
        Parts parts = new Parts(this);
        edit.accept(parts);
        return parts.build();
    }

    /** The components, to change some and build the settings again; the defaults at first. */
    private static final class Parts {
        String uri;
        List<String> nodes = List.of();
        String user;
        String password;
        boolean tls;
        Duration timeout = DurationFormat.parse(RedisKeys.TIMEOUT_DEFAULT);
        int poolSize = Integer.parseInt(RedisKeys.POOL_SIZE_DEFAULT);
        String keyPrefix = RedisKeys.KEY_PREFIX_DEFAULT;
        Duration leaseGrace = DurationFormat.parse(RedisKeys.LEASE_GRACE_DEFAULT);
        int waitReplicas;
        Duration waitTimeout = DurationFormat.parse(RedisKeys.WAIT_TIMEOUT_DEFAULT);
        boolean notifications = true;
        Duration pollLongestPause = DurationFormat.parse(RedisKeys.POLL_LONGEST_PAUSE_DEFAULT);
        EvictionCheck evictionCheck = EvictionCheck.REFUSE;

        Parts() {}

        Parts(RedisStoreSettings s) {
            uri = s.uri;
            nodes = s.nodes;
            user = s.user;
            password = s.password;
            tls = s.tls;
            timeout = s.timeout;
            poolSize = s.poolSize;
            keyPrefix = s.keyPrefix;
            leaseGrace = s.leaseGrace;
            waitReplicas = s.waitReplicas;
            waitTimeout = s.waitTimeout;
            notifications = s.notifications;
            pollLongestPause = s.pollLongestPause;
            evictionCheck = s.evictionCheck;
        }

        RedisStoreSettings build() {
            return new RedisStoreSettings(
                    uri,
                    nodes,
                    user,
                    password,
                    tls,
                    timeout,
                    poolSize,
                    keyPrefix,
                    leaseGrace,
                    waitReplicas,
                    waitTimeout,
                    notifications,
                    pollLongestPause,
                    evictionCheck);
        }
    }

    /**
     * @return whether the settings name a server or a cluster
     */
    public boolean configured() {
        return uri != null || !nodes.isEmpty();
    }

    /**
     * @return whether the settings name a Redis Cluster
     */
    public boolean cluster() {
        return !nodes.isEmpty();
    }

    private static String checkUri(String uri) {
        String text = Objects.requireNonNull(uri, "uri").strip();
        String why =
                "must be redis://host:port or rediss://host:port (with user:password@ and /db"
                        + " optional)";
        try {
            URI parsed = new URI(text);
            String scheme =
                    parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("redis") || scheme.equals("rediss")) && parsed.getHost() != null) {
                return text;
            }
        } catch (URISyntaxException e) {
            // reported below, without the text, which may hold a password
        }
        throw new IllegalArgumentException("Invalid " + RedisKeys.URI + ": " + why);
    }

    private static String checkNode(String node, String list) {
        int colon = node.lastIndexOf(':');
        if (colon > 0) {
            try {
                int port = Integer.parseInt(node.substring(colon + 1));
                if (port > 0 && port <= 65_535) {
                    return node;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException(
                "Invalid "
                        + RedisKeys.NODES
                        + "="
                        + list
                        + ": each node must be host:port, was '"
                        + node
                        + "'");
    }

    private static String prefix(String text) {
        if (text.length() > 64 || !text.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException(
                    "must be at most 64 printable ASCII characters, without spaces");
        }
        if (text.indexOf('{') >= 0 || text.indexOf('}') >= 0) {
            throw new IllegalArgumentException(
                    "must not contain { or }, which would make it a hash tag and put every record of a"
                            + " Redis Cluster on one node");
        }
        return text;
    }

    private static Integer replicas(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 0 && n <= 100) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("must be a whole number from 0 to 100");
    }

    /** Never shows the password, nor a password in the URI. */
    @Override
    public String toString() {
        return "RedisStoreSettings["
                + (uri != null ? "uri=" + RedisUris.redacted(uri) : "nodes=" + nodes)
                + ", user="
                + user
                + ", password="
                + (password == null ? "unset" : "***")
                + ", tls="
                + tls
                + ", timeout="
                + timeout
                + ", poolSize="
                + poolSize
                + ", keyPrefix="
                + keyPrefix
                + ", leaseGrace="
                + leaseGrace
                + ", waitReplicas="
                + waitReplicas
                + ", waitTimeout="
                + waitTimeout
                + ", notifications="
                + notifications
                + ", pollLongestPause="
                + pollLongestPause
                + ", evictionCheck="
                + evictionCheck
                + "]";
    }
}
