package io.idemkit.http;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The HTTP surface's own keys, with their defaults: its dialect, the keys and the headers it
 * requires and stores, and where its filter runs. Declared in its wing and read there ({@link
 * HttpSection}); the key header and the fingerprint's parts stay in {@code ConfigKeys}, as the
 * per-method policy merges them.
 */
public final class HttpKeys {

    /** HTTP dialect: {@code none}, or {@code stripe} (409 for mismatch and in-progress). */
    public static final String COMPAT_MODE = ConfigKeys.PREFIX + "compat-mode";

    /** Default of {@link #COMPAT_MODE}. */
    public static final String COMPAT_MODE_DEFAULT = "none";

    /** Whether a mutating HTTP request to an idempotent endpoint must carry a key (boolean). */
    public static final String REQUIRE_KEY = ConfigKeys.PREFIX + "require-key";

    /** Default of {@link #REQUIRE_KEY}. */
    public static final String REQUIRE_KEY_DEFAULT = "false";

    /** The largest request body fingerprinted; larger requests bypass idempotency, in bytes. */
    public static final String MAX_REQUEST_BYTES = ConfigKeys.PREFIX + "max-request-bytes";

    /** Default of {@link #MAX_REQUEST_BYTES}: 1 MiB. */
    public static final String MAX_REQUEST_BYTES_DEFAULT = "1048576";

    /** Response headers stored and replayed (comma-separated names, case-insensitive). */
    public static final String HEADERS_STORED = ConfigKeys.PREFIX + "headers.stored";

    /** Default of {@link #HEADERS_STORED} (contract C6.3). */
    public static final String HEADERS_STORED_DEFAULT =
            "Content-Type,Content-Encoding,Content-Language,Content-Disposition,Location,ETag,"
                    + "Last-Modified,Link,Cache-Control";

    /** Response headers never stored, even if listed in {@link #HEADERS_STORED}. */
    public static final String HEADERS_NEVER_STORED = ConfigKeys.PREFIX + "headers.never-stored";

    /** Default of {@link #HEADERS_NEVER_STORED}: credentials, Vary and hop-by-hop headers. */
    public static final String HEADERS_NEVER_STORED_DEFAULT =
            "Set-Cookie,Authorization,WWW-Authenticate,Proxy-Authenticate,Proxy-Authorization,"
                    + "Vary,Connection,Keep-Alive,TE,Trailer,Transfer-Encoding,Upgrade";

    /**
     * Whether the HTTP surface renews the leases of long requests on the heartbeat (boolean). It
     * never interrupts a container thread: a lost lease only fences the late result.
     */
    public static final String HEARTBEAT = ConfigKeys.PREFIX + "http.heartbeat";

    /** Default of {@link #HEARTBEAT}: off, as in the reference. */
    public static final String HEARTBEAT_DEFAULT = "false";

    /** Where idemkit's JAX-RS request filter runs: {@code last} or a priority (C6.10). */
    public static final String REQUEST_FILTER_PRIORITY =
            ConfigKeys.PREFIX + "http.request-filter-priority";

    /** Default of {@link #REQUEST_FILTER_PRIORITY}: after every application filter. */
    public static final String REQUEST_FILTER_PRIORITY_DEFAULT = HttpRequestFilterPriority.LAST;

    /**
     * The application's request filters (class names) known to run after idemkit's and to check
     * nobody: neither warned about nor, under {@code scope-mode=strict}, refused (C6.10).
     */
    public static final String FILTERS_AFTER_IDEMKIT =
            ConfigKeys.PREFIX + "http.filters-after-idemkit";

    /** Default of {@link #FILTERS_AFTER_IDEMKIT}: none. */
    public static final String FILTERS_AFTER_IDEMKIT_DEFAULT = "";

    private HttpKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(HttpKeys.class);
    }
}
