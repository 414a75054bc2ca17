package io.idemkit.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Holds a response body as the entity provider writes it, counting the bytes really written, never
 * trusting {@code Content-Length} (contract C6.5). Nothing reaches the client until {@link
 * #release()} hands the held bytes on, so the response headers can still change, unless the body
 * grows past the limit: then {@code onOverflow} runs once, while the headers can still change, the
 * held bytes go out, and every later byte passes straight through.
 *
 * <p>Not thread-safe: one entity provider writes one response.
 */
final class CapturingOutputStream extends OutputStream {

    private final OutputStream wire;
    private final int limit;
    private final Runnable onOverflow;
    private ByteArrayOutputStream held = new ByteArrayOutputStream();

    /**
     * @param wire the stream to the client
     * @param limit the most bytes to hold
     * @param onOverflow runs once, before any byte reaches {@code wire}, when the body outgrows the
     *     limit
     */
    CapturingOutputStream(OutputStream wire, int limit, Runnable onOverflow) {
        this.wire = wire;
        this.limit = limit;
        this.onOverflow = onOverflow;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (held != null && held.size() + (long) len > limit) {
            onOverflow.run();
            byte[] prefix = held.toByteArray();
            held = null;
            wire.write(prefix);
        }
        if (held == null) {
            wire.write(b, off, len);
        } else {
            held.write(b, off, len);
        }
    }

    /** Flushes only once the body passes through; a held body is not the client's yet. */
    @Override
    public void flush() throws IOException {
        if (held == null) {
            wire.flush();
        }
    }

    /** Leaves the client's stream open: the container closes it. */
    @Override
    public void close() throws IOException {
        flush();
    }

    /**
     * @return whether the body outgrew the limit, so that it passed through unheld
     */
    boolean overflowed() {
        return held == null;
    }

    /**
     * @return the body held so far; call only while not {@link #overflowed()}
     */
    byte[] body() {
        return held.toByteArray();
    }

    /**
     * Sends the held body on to the client.
     *
     * @throws IOException when the client's stream fails, for example a client that hung up
     */
    void release() throws IOException {
        if (held != null) {
            wire.write(held.toByteArray());
        }
    }
}
