package io.idemkit.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The request body as the fingerprint sees it (C6.9): a body sent with {@code Content-Encoding:
 * gzip} is fingerprinted decoded, so that it fingerprints like the same body sent plain; the
 * resource still reads it as it came. Decoding stops at the request limit, so a small compressed
 * body cannot expand into a large one (a zip bomb). Other codings ({@code deflate}, {@code br}) and
 * a body that is not valid gzip are fingerprinted as sent.
 */
final class RequestContentCoding {

    private RequestContentCoding() {}

    /**
     * @param contentEncoding the request's {@code Content-Encoding}, or {@code null}
     * @param body the body as sent
     * @param limit {@code idemkit.max-request-bytes}
     * @return the bytes to fingerprint; empty when the decoded body is over {@code limit}
     */
    static Optional<byte[]> fingerprinted(String contentEncoding, byte[] body, int limit) {
        if (contentEncoding == null || body.length == 0) {
            return Optional.of(body);
        }
        String coding = contentEncoding.strip().toLowerCase(Locale.ROOT);
        if (!coding.equals("gzip") && !coding.equals("x-gzip")) {
            return Optional.of(body);
        }
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            ByteArrayOutputStream decoded = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) != -1; ) {
                if (decoded.size() + n > limit) {
                    return Optional.empty();
                }
                decoded.write(buffer, 0, n);
            }
            return Optional.of(decoded.toByteArray());
        } catch (IOException e) {
            // Not gzip after all: the resource will find out; fingerprint what was sent.
            return Optional.of(body);
        }
    }
}
