package io.idemkit.http;

import io.idemkit.config.ConfigValues;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.eclipse.microprofile.config.Config;

/**
 * The HTTP surface's own settings ({@link HttpKeys}), read and checked at deployment by {@link
 * HttpSection} with the rest of the configuration, and read again where the surface starts.
 *
 * @param compatMode the HTTP dialect (C6.4)
 * @param requireKey whether a mutating idempotent request must carry a key
 * @param maxRequestBytes the largest request body fingerprinted
 * @param headersStored lower-case names of the response headers stored (C6.3)
 * @param headersNeverStored lower-case names of the response headers never stored: the deployment's
 *     list and always the credential headers
 * @param heartbeat whether the surface renews long requests' leases (C4.7)
 * @param requestFilterPriority where the request filter runs among the application's ({@link
 *     Integer#MAX_VALUE}: last, C6.10)
 * @param filtersAfterIdemkit the class names of the application's request filters acknowledged to
 *     run after idemkit's, and to neither authenticate nor authorize (C6.10)
 */
public record HttpSettings(
        CompatMode compatMode,
        boolean requireKey,
        int maxRequestBytes,
        Set<String> headersStored,
        Set<String> headersNeverStored,
        boolean heartbeat,
        int requestFilterPriority,
        Set<String> filtersAfterIdemkit) {

    /**
     * The credential headers, never stored whatever {@code idemkit.headers.never-stored} says
     * (C6.3): a deployment's deny-list adds to them, never replaces them.
     */
    static final Set<String> CREDENTIAL_HEADERS =
            Set.of(
                    "set-cookie",
                    "authorization",
                    "www-authenticate",
                    "proxy-authenticate",
                    "proxy-authorization");

    /** Copies the sets. */
    public HttpSettings {
        headersStored = Set.copyOf(headersStored);
        headersNeverStored = Set.copyOf(headersNeverStored);
        filtersAfterIdemkit = Set.copyOf(filtersAfterIdemkit);
    }

    /**
     * @param config the application's configuration, validated at deployment
     * @return the settings
     * @throws io.idemkit.config.InvalidConfigurationException when a key is broken
     */
    public static HttpSettings read(Config config) {
        return ConfigValues.checked(config, HttpSettings::read);
    }

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; defaults or empty sets in place of broken keys (the caller throws
     *     before using them)
     */
    public static HttpSettings read(ConfigValues values) {
        CompatMode compat =
                values.enumValue(
                        HttpKeys.COMPAT_MODE, HttpKeys.COMPAT_MODE_DEFAULT, CompatMode.class);
        boolean requireKey = values.bool(HttpKeys.REQUIRE_KEY, HttpKeys.REQUIRE_KEY_DEFAULT);
        int maxRequest =
                values.wholeNumber(
                        HttpKeys.MAX_REQUEST_BYTES,
                        HttpKeys.MAX_REQUEST_BYTES_DEFAULT,
                        Integer.MAX_VALUE - 8);
        Set<String> stored =
                headers(values, HttpKeys.HEADERS_STORED, HttpKeys.HEADERS_STORED_DEFAULT);
        Set<String> neverStored =
                new LinkedHashSet<>(
                        headers(
                                values,
                                HttpKeys.HEADERS_NEVER_STORED,
                                HttpKeys.HEADERS_NEVER_STORED_DEFAULT));
        neverStored.addAll(CREDENTIAL_HEADERS);
        boolean heartbeat = values.bool(HttpKeys.HEARTBEAT, HttpKeys.HEARTBEAT_DEFAULT);
        Integer priority =
                values.value(
                        HttpKeys.REQUEST_FILTER_PRIORITY,
                        HttpKeys.REQUEST_FILTER_PRIORITY_DEFAULT,
                        HttpRequestFilterPriority::parse);
        Set<String> filtersAfterIdemkit =
                values.value(
                        HttpKeys.FILTERS_AFTER_IDEMKIT,
                        HttpKeys.FILTERS_AFTER_IDEMKIT_DEFAULT,
                        HttpSettings::classNames);
        return new HttpSettings(
                compat == null ? CompatMode.NONE : compat,
                requireKey,
                maxRequest,
                stored,
                neverStored,
                heartbeat,
                priority == null ? Integer.MAX_VALUE : priority,
                filtersAfterIdemkit == null ? Set.of() : filtersAfterIdemkit);
    }

    /**
     * Comma-separated fully qualified class names, such as {@code com.example.AccessLog$Filter}.
     */
    private static Set<String> classNames(String text) {
        return ConfigValues.list(
                text,
                name -> {
                    if (!name.matches(
                            "[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
                        throw new IllegalArgumentException("'" + name + "' is not a class name");
                    }
                    return name;
                });
    }

    private static Set<String> headers(ConfigValues values, String key, String defaultText) {
        Set<String> names =
                values.value(
                        key,
                        defaultText,
                        text ->
                                ConfigValues.list(
                                        text,
                                        raw -> {
                                            String name = raw.toLowerCase(Locale.ROOT);
                                            if (!name.matches("[!#$%&'*+.^_`|~0-9a-z-]+")) {
                                                throw new IllegalArgumentException(
                                                        "'" + raw + "' is not a header name");
                                            }
                                            return name;
                                        }));
        return names == null ? Set.of() : names;
    }
}
