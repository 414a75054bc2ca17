package io.idemkit.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * A request body read for fingerprinting, at most {@code limit} bytes of it, with the stream the
 * resource must read instead: the bytes already read, then whatever was left unread. Entity
 * providers (JSON-B, JSON-P, forms) so see the whole body, once.
 *
 * @param bytes the body, or its first {@code limit + 1} bytes when it is larger
 * @param overLimit whether the body is larger than the limit, so that it was not read whole
 * @param stream the stream to hand to the resource in place of the original
 */
record RequestBody(byte[] bytes, boolean overLimit, InputStream stream) {

    private static final int CHUNK = 8192;

    /**
     * @param in the request's entity stream, or {@code null} for none
     * @param limit the most bytes to hold, at least 1
     * @return the body read
     * @throws IOException when the client's stream fails
     */
    static RequestBody read(InputStream in, int limit) throws IOException {
        if (in == null) {
            return new RequestBody(new byte[0], false, InputStream.nullInputStream());
        }
        ByteArrayOutputStream held = new ByteArrayOutputStream(Math.min(limit + 1, CHUNK));
        byte[] chunk = new byte[Math.min(limit + 1, CHUNK)];
        long room = (long) limit + 1;
        while (room > 0) {
            int n = in.read(chunk, 0, (int) Math.min(chunk.length, room));
            if (n < 0) {
                byte[] body = held.toByteArray();
                return new RequestBody(body, false, new ByteArrayInputStream(body));
            }
            held.write(chunk, 0, n);
            room -= n;
        }
        byte[] prefix = held.toByteArray();
        return new RequestBody(
                prefix, true, new SequenceInputStream(new ByteArrayInputStream(prefix), in));
    }
}
