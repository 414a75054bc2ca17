package io.idemkit.config;

import io.idemkit.Idempotent;
import io.idemkit.core.hash.BodySelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a JAX-RS request's key comes from, and which of its headers and body fields enter its
 * fingerprint (contract C6.1, C6.9, C6.11): {@code idemkit.key-header}, {@code
 * idemkit.key-extractor}, {@code idemkit.fingerprint.headers} and {@code
 * idemkit.fingerprint.fields} globally, and per class or method the {@link Idempotent#keyHeader()},
 * {@link Idempotent#keyExtractor()}, {@link Idempotent#fingerprintHeaders()} and {@link
 * Idempotent#fingerprintFields()} members or the per-method keys of {@link
 * io.idemkit.policy.PerMethodConfig} ({@code
 * com.example.Orders/create/Idempotent/keyHeader=X-Request-Key}), with the usual precedence.
 *
 * <p>This record is the global values and a method's merged result; the merging is {@link
 * io.idemkit.policy.HttpKeyResolution}.
 *
 * <p>A key header and a key extractor are two answers to one question: the most specific level that
 * gives either decides, and one level that gives both is refused. A blank {@code keyExtractor} in a
 * per-method key goes back to the header.
 *
 * @param keyHeader the header carrying the key, when no extractor applies
 * @param fingerprintHeaders lower-case header names that enter the fingerprint, sorted, distinct
 * @param keyExtractor the class name of the {@code IdempotencyKeyExtractor} bean that takes the key
 *     from the request, or empty for the header
 * @param fingerprintFields the paths of the JSON body fields that enter the fingerprint in place of
 *     the body ({@link BodySelection}), sorted, distinct; none for the whole body
 */
public record HttpKeyPolicy(
        String keyHeader,
        List<String> fingerprintHeaders,
        Optional<String> keyExtractor,
        List<String> fingerprintFields) {

    /** The member that names the key's header. */
    public static final String KEY_HEADER = "keyHeader";

    /** The member that lists the fingerprinted headers, comma-separated in configuration. */
    public static final String FINGERPRINT_HEADERS = "fingerprintHeaders";

    /** The member that names the class of the bean that takes the key from the request. */
    public static final String KEY_EXTRACTOR = "keyExtractor";

    /** The member that lists the fingerprinted body fields, comma-separated in configuration. */
    public static final String FINGERPRINT_FIELDS = "fingerprintFields";

    /** The members of the HTTP key policy, which per-method configuration keys can set. */
    public static final List<String> MEMBERS =
            List.of(KEY_HEADER, FINGERPRINT_HEADERS, KEY_EXTRACTOR, FINGERPRINT_FIELDS);

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
        keyExtractor = Objects.requireNonNull(keyExtractor, "keyExtractor").map(String::strip);
        keyExtractor.ifPresent(name -> check(KEY_EXTRACTOR, name));
        fingerprintFields =
                fingerprintFields.isEmpty()
                        ? List.of()
                        : BodySelection.of(fingerprintFields).paths();
    }

    /** A policy that takes the key from {@code keyHeader} and fingerprints the whole body. */
    public HttpKeyPolicy(String keyHeader, List<String> fingerprintHeaders) {
        this(keyHeader, fingerprintHeaders, Optional.empty());
    }

    /** A policy that fingerprints the whole body. */
    public HttpKeyPolicy(
            String keyHeader, List<String> fingerprintHeaders, Optional<String> keyExtractor) {
        this(keyHeader, fingerprintHeaders, keyExtractor, List.of());
    }

    /**
     * @return the body fields that enter the fingerprint, or {@link BodySelection#WHOLE_BODY}
     */
    public BodySelection bodySelection() {
        return fingerprintFields.isEmpty()
                ? BodySelection.WHOLE_BODY
                : BodySelection.of(fingerprintFields);
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
            case KEY_EXTRACTOR -> {
                // Blank in a per-method key: back to the header. The member names either SPI: an
                // Incoming method's extractor reads records.
                if (!text.isBlank()) {
                    BeanClassName.check(
                            text.strip(),
                            "IdempotencyKeyExtractor (RecordKeyExtractor on an @Incoming method)");
                }
            }
            case FINGERPRINT_FIELDS -> fieldList(text);
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

    /**
     * @param text comma-separated field paths (C6.11); blank names no field, which is refused
     *     rather than read as "no field in the fingerprint"
     * @return the paths, sorted, distinct
     * @throws IllegalArgumentException naming the rule a path broke, or when there is none
     */
    public static List<String> fieldList(String text) {
        if (text.isBlank()) {
            return BodySelection.of(List.of()).paths();
        }
        return BodySelection.of(List.of(text.split(",", -1))).paths();
    }

    private static String headerName(String text) {
        String name = text.strip();
        if (!TOKEN.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a header name");
        }
        return name;
    }
}
