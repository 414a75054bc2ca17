package io.idemkit.client;

import io.idemkit.IdempotencyWire;
import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.client.*} keys of the calling side, with their defaults: declared in its wing,
 * which hands them to the unknown-key check ({@link #all()}).
 */
public final class ClientKeys {

    /**
     * The request header in which the client sends a request's key (C14.4); the server's {@link
     * #KEY_HEADER} by default.
     */
    public static final String KEY_HEADER = ConfigKeys.PREFIX + "client.key-header";

    /** Default of {@link #KEY_HEADER}. */
    public static final String KEY_HEADER_DEFAULT = IdempotencyWire.KEY_HEADER;

    /** The methods whose requests the client keys, comma-separated (C14.4). */
    public static final String METHODS = ConfigKeys.PREFIX + "client.methods";

    /** Default of {@link #METHODS}: the reference's {@code applicable_methods}. */
    public static final String METHODS_DEFAULT = "POST,PATCH";

    /**
     * Whether a request sent outside every operation gets a key of its own (C14.4): {@code true} or
     * {@code false}.
     */
    public static final String KEY_WITHOUT_OPERATION =
            ConfigKeys.PREFIX + "client.key-without-operation";

    /** Default of {@link #KEY_WITHOUT_OPERATION}. */
    public static final String KEY_WITHOUT_OPERATION_DEFAULT = "true";

    /**
     * How long after an operation's first key was sent a server is taken to still remember it, a
     * duration: no retry starts later (C14.5). The server's {@link #COMPLETED_TTL} by default.
     */
    public static final String KEY_LIFETIME = ConfigKeys.PREFIX + "client.key-lifetime";

    /** Default of {@link #KEY_LIFETIME}. */
    public static final String KEY_LIFETIME_DEFAULT = "24h";

    /** How many times the retry executor sends a call again, at most (0 to 100; C14.5). */
    public static final String RETRY_MAX_RETRIES = ConfigKeys.PREFIX + "client.retry.max-retries";

    /** Default of {@link #RETRY_MAX_RETRIES}: Fault Tolerance's {@code maxRetries}. */
    public static final String RETRY_MAX_RETRIES_DEFAULT = "3";

    /** The retry executor's first back-off, doubled after every retry (a duration; C14.5). */
    public static final String RETRY_DELAY = ConfigKeys.PREFIX + "client.retry.delay";

    /** Default of {@link #RETRY_DELAY}. */
    public static final String RETRY_DELAY_DEFAULT = "200ms";

    /**
     * The longest back-off, and the longest {@code Retry-After} the retry executor waits for (a
     * duration; C14.5).
     */
    public static final String RETRY_MAX_DELAY = ConfigKeys.PREFIX + "client.retry.max-delay";

    /** Default of {@link #RETRY_MAX_DELAY}. */
    public static final String RETRY_MAX_DELAY_DEFAULT = "10s";

    /**
     * How long after its first attempt the retry executor may start another (a duration, below
     * {@link #KEY_LIFETIME}; C14.5).
     */
    public static final String RETRY_MAX_DURATION = ConfigKeys.PREFIX + "client.retry.max-duration";

    /** Default of {@link #RETRY_MAX_DURATION}. */
    public static final String RETRY_MAX_DURATION_DEFAULT = "60s";

    /**
     * The response statuses the retry executor sends a call again on, comma-separated: 408, 423,
     * 425, 429 and 5xx codes only (C14.5).
     */
    public static final String RETRY_STATUSES = ConfigKeys.PREFIX + "client.retry.statuses";

    /** Default of {@link #RETRY_STATUSES}. */
    public static final String RETRY_STATUSES_DEFAULT = "408,423,425,429,502,503,504";

    private ClientKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(ClientKeys.class);
    }
}
