package io.idemkit.core.hash;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The canonical form of a request body, by media type (contract C6.9). Mirrors {@code
 * canonicalize_body} of the Python reference:
 *
 * <ul>
 *   <li>an empty body, or a missing or empty content type: the body as is;
 *   <li>media type {@code application/json}: {@link CanonicalJson}, or the raw bytes when that
 *       fails;
 *   <li>media type {@code application/x-www-form-urlencoded}: strict UTF-8 decoding (the raw bytes
 *       when that fails), then {@link CanonicalQuery}, as ASCII bytes;
 *   <li>any other media type, multipart included: the raw bytes.
 * </ul>
 *
 * <p>The media type is the part of the content type before the first {@code ;}, with white space
 * (as Python's {@code str.strip} sees it) trimmed, compared case-insensitively. Never throws on bad
 * input. Thread-safe.
 */
public final class CanonicalBody {

    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";

    private CanonicalBody() {}

    /**
     * Canonicalizes a body.
     *
     * @param body the body bytes; empty when the request has none
     * @param contentType the request's {@code Content-Type} header, or null when it has none
     * @return the canonical bytes; the {@code body} array itself when it is used raw
     */
    public static byte[] canonicalize(byte[] body, String contentType) {
        Objects.requireNonNull(body, "body");
        if (body.length == 0 || contentType == null || contentType.isEmpty()) {
            return body;
        }
        if (hasMediaType(contentType, JSON)) {
            return CanonicalJson.canonicalize(body).orElse(body);
        }
        if (hasMediaType(contentType, FORM)) {
            Optional<String> form = Utf8.decodeStrict(body);
            return form.isEmpty()
                    ? body
                    : CanonicalQuery.canonicalize(form.get()).getBytes(StandardCharsets.US_ASCII);
        }
        return body;
    }

    /**
     * Python's {@code contentType.lower().split(";", 1)[0].strip() == mediaType}. Only ASCII
     * letters are folded: {@code str.lower} maps no other character onto a letter of the two media
     * types (the Kelvin sign becomes {@code k}, which neither has).
     */
    private static boolean hasMediaType(String contentType, String mediaType) {
        int end = contentType.indexOf(';');
        if (end < 0) {
            end = contentType.length();
        }
        int start = 0;
        while (start < end && PythonWhitespace.is(contentType.charAt(start))) {
            start++;
        }
        while (end > start && PythonWhitespace.is(contentType.charAt(end - 1))) {
            end--;
        }
        if (end - start != mediaType.length()) {
            return false;
        }
        for (int i = 0; i < mediaType.length(); i++) {
            char c = contentType.charAt(start + i);
            if (c >= 'A' && c <= 'Z') {
                c = (char) (c + ('a' - 'A'));
            }
            if (c != mediaType.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
