package io.idemkit.client;

import io.idemkit.config.DurationFormat;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The client's settings (C14): which requests get a key and in which header, and how the retry
 * executor retries. {@link #fromConfig()} reads them from the {@code idemkit.client.*} keys of
 * MicroProfile Config; {@link #defaults()} and the {@code with…} methods build them in code.
 * Immutable and thread-safe.
 *
 * <p><b>Building one.</b> Start from {@link #defaults()} or {@link #fromConfig()} and change what
 * differs with the {@code with…} methods, each of which returns new settings:
 *
 * <pre>{@code
 * ClientSettings settings = ClientSettings.defaults()
 *         .withKeyHeader("X-Key")
 *         .withRetries(5, Duration.ofMillis(100), Duration.ofSeconds(5));
 * }</pre>
 *
 * This is the stable way: when the settings gain a component, it gets a default in {@code
 * defaults()} and a {@code with…} method, and this code keeps compiling. The canonical constructor
 * is public only because a record's canonical constructor cannot be less visible than the record;
 * it gains a parameter with every component, so code that calls it breaks then. New code should not
 * call it. There is no builder: every setting has a default, so {@code defaults()} is a complete,
 * valid starting point, and the settings that a rule ties together change together ({@link
 * #withRetries} the retry count and both back-offs, as {@code maxDelay} must be at least {@code
 * delay}; {@link #withLimits} the longest call and the key lifetime, as the first must be below the
 * second), so every step is checked settings, never a half-built value.
 *
 * @param keyHeader the request header that carries the key; default {@code Idempotency-Key}
 * @param methods the methods whose requests get a key, upper case; default {@code POST, PATCH} (the
 *     reference's applicable methods). Safe methods (GET, HEAD, OPTIONS, TRACE) cannot be listed
 * @param keyWithoutOperation whether a request sent outside every operation gets a fresh key of its
 *     own; default {@code true}
 * @param keyLifetime how long after an operation's first key went out a server is taken to still
 *     remember it; no retry starts later; default 24 hours, the server's {@code completed-ttl}
 * @param maxRetries how many times the retry executor sends a call again, 0 to 100; default 3
 * @param delay the first back-off, doubled after each retry; default 200 ms
 * @param maxDelay the longest back-off, and the longest {@code Retry-After} waited for; at least
 *     {@code delay}; default 10 s
 * @param maxDuration how long after the first attempt another may start; below {@code keyLifetime};
 *     default 60 s
 * @param retryStatuses the statuses retried: 408, 423, 425, 429 and 5xx codes only; default 408,
 *     423, 425, 429, 502, 503, 504
 */
public record ClientSettings(
        String keyHeader,
        Set<String> methods,
        boolean keyWithoutOperation,
        Duration keyLifetime,
        int maxRetries,
        Duration delay,
        Duration maxDelay,
        Duration maxDuration,
        Set<Integer> retryStatuses) {

    /** The safe methods (RFC 9110, 9.2.1), which never need a key. */
    static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    /** The 4xx statuses that a retry with the same key can change (C14.5). */
    static final Set<Integer> RETRYABLE_CLIENT_ERRORS = Set.of(408, 423, 425, 429);

    /** The most retries that can be configured. */
    static final int MAX_RETRIES_LIMIT = 100;

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";

    /**
     * Checks every setting. Not for new code: it gains a parameter with every component the
     * settings gain; start from {@link #defaults()} and use the {@code with…} methods (see the
     * class comment).
     *
     * @param keyHeader the request header that carries the key
     * @param methods the methods whose requests get a key
     * @param keyWithoutOperation whether a request sent outside every operation gets a key
     * @param keyLifetime how long a server is taken to remember a key
     * @param maxRetries how many times the retry executor sends a call again, 0 to 100
     * @param delay the first back-off
     * @param maxDelay the longest back-off, at least {@code delay}
     * @param maxDuration how long after the first attempt another may start, below {@code
     *     keyLifetime}
     * @param retryStatuses the statuses retried: 408, 423, 425, 429 and 5xx codes only
     * @throws IllegalArgumentException naming the setting's key, its value and the rule it breaks
     */
    public ClientSettings {
        Objects.requireNonNull(keyHeader, "keyHeader");
        Objects.requireNonNull(methods, "methods");
        Objects.requireNonNull(keyLifetime, "keyLifetime");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(maxDuration, "maxDuration");
        Objects.requireNonNull(retryStatuses, "retryStatuses");
        keyHeader = keyHeader.strip();
        if (!keyHeader.matches(TOKEN)) {
            throw invalid(ClientKeys.KEY_HEADER, keyHeader, "must be a header name");
        }
        methods = checkMethods(methods);
        retryStatuses = checkStatuses(retryStatuses);
        positive(ClientKeys.KEY_LIFETIME, keyLifetime);
        positive(ClientKeys.RETRY_DELAY, delay);
        positive(ClientKeys.RETRY_MAX_DURATION, maxDuration);
        if (maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) {
            throw invalid(
                    ClientKeys.RETRY_MAX_RETRIES,
                    Integer.toString(maxRetries),
                    "must be a whole number from 0 to " + MAX_RETRIES_LIMIT);
        }
        if (maxDelay.compareTo(delay) < 0) {
            throw invalid(
                    ClientKeys.RETRY_MAX_DELAY,
                    DurationFormat.format(maxDelay),
                    "must be at least "
                            + ClientKeys.RETRY_DELAY
                            + " ("
                            + DurationFormat.format(delay)
                            + ")");
        }
        if (maxDuration.compareTo(keyLifetime) >= 0) {
            throw invalid(
                    ClientKeys.RETRY_MAX_DURATION,
                    DurationFormat.format(maxDuration),
                    "must be less than "
                            + ClientKeys.KEY_LIFETIME
                            + " ("
                            + DurationFormat.format(keyLifetime)
                            + "): a retry after the server forgot the key runs the request again");
        }
    }

    /**
     * @return the defaults, as the configuration table gives them
     */
    public static ClientSettings defaults() {
        return new ClientSettings(
                ClientKeys.KEY_HEADER_DEFAULT,
                ClientSettingsReader.methods(ClientKeys.METHODS_DEFAULT),
                Boolean.parseBoolean(ClientKeys.KEY_WITHOUT_OPERATION_DEFAULT),
                DurationFormat.parse(ClientKeys.KEY_LIFETIME_DEFAULT),
                Integer.parseInt(ClientKeys.RETRY_MAX_RETRIES_DEFAULT),
                DurationFormat.parse(ClientKeys.RETRY_DELAY_DEFAULT),
                DurationFormat.parse(ClientKeys.RETRY_MAX_DELAY_DEFAULT),
                DurationFormat.parse(ClientKeys.RETRY_MAX_DURATION_DEFAULT),
                ClientSettingsReader.statuses(ClientKeys.RETRY_STATUSES_DEFAULT));
    }

    /**
     * Reads the {@code idemkit.client.*} keys of the application's MicroProfile Config. Without
     * MicroProfile Config on the class path, or without an implementation of it, the {@linkplain
     * #defaults() defaults}.
     *
     * @return the settings
     * @throws IllegalArgumentException listing every broken key, one per line
     */
    public static ClientSettings fromConfig() {
        return ClientSettingsReader.fromMicroProfileConfig().orElseGet(ClientSettings::defaults);
    }

    /**
     * @param header the request header that carries the key, a header name
     * @return these settings with another key header
     * @throws IllegalArgumentException if it is not a header name
     */
    public ClientSettings withKeyHeader(String header) {
        return new ClientSettings(
                header,
                methods,
                keyWithoutOperation,
                keyLifetime,
                maxRetries,
                delay,
                maxDelay,
                maxDuration,
                retryStatuses);
    }

    /**
     * @param keyed the methods whose requests get a key; at least one, none of them safe
     * @return these settings with other keyed methods
     * @throws IllegalArgumentException if one is not a method, or is safe, or none is given
     */
    public ClientSettings withMethods(Set<String> keyed) {
        return new ClientSettings(
                keyHeader,
                keyed,
                keyWithoutOperation,
                keyLifetime,
                maxRetries,
                delay,
                maxDelay,
                maxDuration,
                retryStatuses);
    }

    /**
     * @param keyed whether a request sent outside every operation gets a fresh key of its own
     * @return these settings with or without a key for requests outside every operation
     */
    public ClientSettings withKeyWithoutOperation(boolean keyed) {
        return new ClientSettings(
                keyHeader,
                methods,
                keyed,
                keyLifetime,
                maxRetries,
                delay,
                maxDelay,
                maxDuration,
                retryStatuses);
    }

    /**
     * @param retries how many times a call is sent again, 0 to 100
     * @param firstDelay the first back-off, positive
     * @param longestDelay the longest back-off, at least {@code firstDelay}
     * @return these settings with another retry budget
     * @throws IllegalArgumentException if a value breaks its rule
     */
    public ClientSettings withRetries(int retries, Duration firstDelay, Duration longestDelay) {
        return new ClientSettings(
                keyHeader,
                methods,
                keyWithoutOperation,
                keyLifetime,
                retries,
                firstDelay,
                longestDelay,
                maxDuration,
                retryStatuses);
    }

    /**
     * @param longestCall how long after the first attempt another may start, below {@code lifetime}
     * @param lifetime how long a server is taken to remember a key, positive
     * @return these settings with another bound on the whole of a call's retries, and on the keys'
     *     lifetime
     * @throws IllegalArgumentException if a value breaks its rule
     */
    public ClientSettings withLimits(Duration longestCall, Duration lifetime) {
        return new ClientSettings(
                keyHeader,
                methods,
                keyWithoutOperation,
                lifetime,
                maxRetries,
                delay,
                maxDelay,
                longestCall,
                retryStatuses);
    }

    /**
     * @param statuses the statuses retried: 408, 423, 425, 429 and 5xx codes only
     * @return these settings retrying other statuses
     * @throws IllegalArgumentException if another status is listed
     */
    public ClientSettings withRetryStatuses(Set<Integer> statuses) {
        return new ClientSettings(
                keyHeader,
                methods,
                keyWithoutOperation,
                keyLifetime,
                maxRetries,
                delay,
                maxDelay,
                maxDuration,
                statuses);
    }

    private static Set<String> checkMethods(Set<String> methods) {
        Set<String> upper = new TreeSet<>();
        for (String method : methods) {
            String m = method.strip().toUpperCase(Locale.ROOT);
            if (!m.matches(TOKEN)) {
                throw invalid(ClientKeys.METHODS, method, "'" + m + "' is not a method");
            }
            if (SAFE_METHODS.contains(m)) {
                throw invalid(
                        ClientKeys.METHODS,
                        String.join(",", methods),
                        m + " is safe: it needs no key");
            }
            upper.add(m);
        }
        if (upper.isEmpty()) {
            throw invalid(ClientKeys.METHODS, "", "must name at least one method");
        }
        return Set.copyOf(upper);
    }

    private static Set<Integer> checkStatuses(Set<Integer> statuses) {
        for (int status : statuses) {
            if (!RETRYABLE_CLIENT_ERRORS.contains(status) && (status < 500 || status > 599)) {
                throw invalid(
                        ClientKeys.RETRY_STATUSES,
                        Integer.toString(status),
                        "only 408, 423, 425, 429 and 5xx codes can be retried: another answer"
                                + " to the same key and body is final");
            }
        }
        return Set.copyOf(statuses);
    }

    private static void positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw invalid(key, DurationFormat.format(value), "must be positive");
        }
    }

    private static IllegalArgumentException invalid(String key, String value, String rule) {
        return new IllegalArgumentException("Invalid " + key + "=" + value + ": " + rule);
    }
}
