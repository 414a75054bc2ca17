package io.idemkit.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;

/**
 * A request body read for fingerprinting, at most {@code limit} bytes of it, with the stream the
 * resource must read instead: the bytes already read, then whatever was left unread. Entity
 * providers (JSON-B, JSON-P, forms) so see the whole body, once.
 *
 * <p>A declared {@code Content-Length} within the limit sizes the copy exactly, so that a small
 * body costs one small array; it is only a hint: the bytes that arrive decide, and a body longer or
 * shorter than declared is read as it is.
 *
 * @param bytes the body, or its first {@code limit + 1} bytes when it is larger
 * @param overLimit whether the body is larger than the limit, so that it was not read whole
 * @param stream the stream to hand to the resource in place of the original
 */
record RequestBody(byte[] bytes, boolean overLimit, InputStream stream) {

    /** The first array for a body of unknown length (chunked); it doubles as it fills. */
    private static final int UNKNOWN_LENGTH_START = 1024;

    /**
     * @param in the request's entity stream, or {@code null} for none
     * @param limit the most bytes to hold, at least 1
     * @param declaredLength the request's {@code Content-Length}, or -1 when it has none
     * @return the body read
     * @throws IOException when the client's stream fails
     */
    static RequestBody read(InputStream in, int limit, long declaredLength) throws IOException {
        if (in == null) {
            return new RequestBody(new byte[0], false, InputStream.nullInputStream());
        }
        int cap = limit == Integer.MAX_VALUE ? limit : limit + 1; // one more shows "over"
        int size =
                declaredLength >= 0 && declaredLength < cap
                        ? (int) declaredLength
                        : Math.min(cap, UNKNOWN_LENGTH_START);
        byte[] buffer = new byte[size];
        int filled = 0;
        while (true) {
            if (filled == buffer.length) {
                if (filled == cap) {
                    return new RequestBody(
                            buffer,
                            true,
                            new SequenceInputStream(new ByteArrayInputStream(buffer), in));
                }
                // Full as declared: one more byte tells the end from a longer body.
                int next = in.read();
                if (next < 0) {
                    return whole(buffer);
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(cap, Math.max(16L, 2L * filled)));
                buffer[filled++] = (byte) next;
                continue;
            }
            int n = in.read(buffer, filled, buffer.length - filled);
            if (n < 0) {
                return whole(filled == buffer.length ? buffer : Arrays.copyOf(buffer, filled));
            }
            filled += n;
        }
    }

    private static RequestBody whole(byte[] body) {
        return new RequestBody(body, false, new ByteArrayInputStream(body));
    }
}
