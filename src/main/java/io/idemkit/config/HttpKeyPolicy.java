package io.idemkit.config;

import io.idemkit.Idempotent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * Where a JAX-RS request's key comes from, and which of its headers enter its fingerprint (contract
 * C6.1, C6.9): {@code idemkit.key-header} and {@code idemkit.fingerprint.headers} globally, and per
 * class or method the {@link Idempotent#keyHeader()} and {@link Idempotent#fingerprintHeaders()}
 * members or the per-method keys of {@link PerMethodConfig} ({@code
 * com.example.Orders/create/Idempotent/keyHeader=X-Request-Key}), with the usual precedence.
 *
 * @param keyHeader the header carrying the key
 * @param fingerprintHeaders lower-case header names that enter the fingerprint, sorted, distinct
 */
public record HttpKeyPolicy(String keyHeader, List<String> fingerprintHeaders) {

    /** The member that names the key's header. */
    public static final String KEY_HEADER = "keyHeader";

    /** The member that lists the fingerprinted headers, comma-separated in configuration. */
    public static final String FINGERPRINT_HEADERS = "fingerprintHeaders";

    /** The members of the HTTP key policy, which per-method configuration keys can set. */
    public static final List<String> MEMBERS = List.of(KEY_HEADER, FINGERPRINT_HEADERS);

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /** Validates and normalizes the components. */
    public HttpKeyPolicy {
        keyHeader = headerName(Objects.requireNonNull(keyHeader, "keyHeader"));
        fingerprintHeaders =
                fingerprintHeaders.stream()
                        .map(HttpKeyPolicy::headerName)
                        .map(n -> n.toLowerCase(Locale.ROOT))
                        .distinct()
                        .sorted()
                        .toList();
    }

    /**
     * @param config the configuration
     * @param type the resource class
     * @param methodName the resource method's name
     * @param onType the class's annotation, or {@code null}
     * @param onMethod the method's annotation, or {@code null}
     * @param defaults the global values
     * @return the method's policy: method key over method annotation over class key over class
     *     annotation over the defaults
     * @throws IllegalArgumentException naming the rule a value broke
     */
    public static HttpKeyPolicy resolve(
            Config config,
            String type,
            String methodName,
            Idempotent onType,
            Idempotent onMethod,
            HttpKeyPolicy defaults) {
        Map<String, String> members = new LinkedHashMap<>();
        members.putAll(members(onType));
        members.putAll(PerMethodConfig.forClass(config, type, MEMBERS));
        members.putAll(members(onMethod));
        members.putAll(PerMethodConfig.forMethod(config, type, methodName, MEMBERS));
        return new HttpKeyPolicy(
                members.getOrDefault(KEY_HEADER, defaults.keyHeader()),
                members.containsKey(FINGERPRINT_HEADERS)
                        ? headerList(members.get(FINGERPRINT_HEADERS))
                        : defaults.fingerprintHeaders());
    }

    /**
     * @param annotation an annotation, or {@code null}
     * @return its members that are set, by name, the header list comma-joined
     */
    public static Map<String, String> members(Idempotent annotation) {
        Map<String, String> set = new LinkedHashMap<>();
        if (annotation != null) {
            if (!annotation.keyHeader().isBlank()) {
                set.put(KEY_HEADER, annotation.keyHeader());
            }
            if (annotation.fingerprintHeaders().length > 0) {
                set.put(FINGERPRINT_HEADERS, String.join(",", annotation.fingerprintHeaders()));
            }
        }
        return set;
    }

    /**
     * Checks one member's text.
     *
     * @throws IllegalArgumentException with the rule the value broke
     */
    public static void check(String member, String text) {
        switch (member) {
            case KEY_HEADER -> headerName(text);
            case FINGERPRINT_HEADERS -> headerList(text);
            default -> throw new IllegalArgumentException("not an HTTP key member: " + member);
        }
    }

    /**
     * @param text comma-separated header names, possibly empty
     * @return the names
     * @throws IllegalArgumentException if one is no header name
     */
    public static List<String> headerList(String text) {
        List<String> names = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            if (!raw.isBlank()) {
                names.add(headerName(raw));
            }
        }
        return names;
    }

    private static String headerName(String text) {
        String name = text.strip();
        if (!TOKEN.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a header name");
        }
        return name;
    }
}
