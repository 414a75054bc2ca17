package io.idemkit.core.hash;

import io.idemkit.spi.IdempotencyRecord;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The request fingerprint (contract C1, C6.9): {@link LengthPrefixedSha256} over the method in
 * upper case, the {@link CanonicalPath canonical path}, the {@link CanonicalQuery canonical query}
 * and the {@link CanonicalBody canonical body}. Mirrors {@code compute_fingerprint} of the Python
 * reference, byte for byte, at version {@value #VERSION}.
 *
 * <p>Thread-safe and stateless.
 */
public final class Fingerprint {

    /** The fingerprint version stored with every record; this construction is version 1. */
    public static final int VERSION = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    private Fingerprint() {}

    /**
     * Fingerprints an HTTP request.
     *
     * @param method the HTTP method, in any case
     * @param rawPath the request path as sent, not decoded
     * @param rawQuery the query as sent, not decoded; null or empty when there is none
     * @param body the body bytes; empty when there is none
     * @param contentType the {@code Content-Type} header; null when there is none
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException when the method is not ASCII in upper case, or the path or
     *     query holds a lone surrogate: inputs the reference cannot encode either
     */
    public static String forHttp(
            String method, String rawPath, String rawQuery, byte[] body, String contentType) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        Objects.requireNonNull(body, "body");
        return LengthPrefixedSha256.hex(
                CanonicalMethod.bytes(method),
                Utf8.encode(CanonicalPath.canonicalize(rawPath)),
                CanonicalQuery.canonicalize(rawQuery).getBytes(StandardCharsets.US_ASCII),
                CanonicalBody.canonicalize(body, contentType));
    }
}
