package io.idemkit.core.hash;

import io.idemkit.spi.IdempotencyRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
        return forHttp(method, rawPath, rawQuery, body, contentType, List.of());
    }

    /**
     * The fingerprint of an HTTP request whose meaning also depends on some of its headers: the
     * four parts above, then one part per header, {@code name:value}, the name in lower case and
     * the values joined by a comma, in the order given (the caller sorts them). With no header
     * parts it equals the reference's fingerprint.
     *
     * @param method the HTTP method
     * @param rawPath the request path as sent
     * @param rawQuery the query as sent, or {@code null}
     * @param body the body bytes
     * @param contentType the body's media type, or {@code null}
     * @param headerParts {@code name:value} per fingerprinted header
     * @return 64 lowercase hex characters
     */
    public static String forHttp(
            String method,
            String rawPath,
            String rawQuery,
            byte[] body,
            String contentType,
            List<String> headerParts) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        Objects.requireNonNull(body, "body");
        List<byte[]> parts = new ArrayList<>(4 + headerParts.size());
        parts.add(CanonicalMethod.bytes(method));
        parts.add(Utf8.encode(CanonicalPath.canonicalize(rawPath)));
        parts.add(CanonicalQuery.canonicalize(rawQuery).getBytes(StandardCharsets.US_ASCII));
        parts.add(CanonicalBody.canonicalize(body, contentType));
        for (String header : headerParts) {
            parts.add(Utf8.encode(header));
        }
        return LengthPrefixedSha256.hex(parts);
    }
}
