package io.idemkit.it.http.app;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/** Writes a {@link Blob} in small chunks and announces no length: no Content-Length to trust. */
@Provider
@Produces(MediaType.APPLICATION_OCTET_STREAM)
public class BlobWriter implements MessageBodyWriter<Blob> {

    /** A blob of this size breaks after its first 100 bytes, as a writer that fails part-way. */
    static final int BREAKS = 666;

    @Override
    public boolean isWriteable(Class<?> type, Type generic, Annotation[] a, MediaType m) {
        return type == Blob.class;
    }

    @Override
    public long getSize(Blob blob, Class<?> type, Type generic, Annotation[] a, MediaType m) {
        return -1;
    }

    @Override
    public void writeTo(
            Blob blob,
            Class<?> type,
            Type generic,
            Annotation[] a,
            MediaType m,
            MultivaluedMap<String, Object> headers,
            OutputStream out)
            throws IOException {
        byte[] chunk = new byte[100];
        java.util.Arrays.fill(chunk, (byte) 'x');
        for (int left = blob.size(); left > 0; left -= chunk.length) {
            out.write(chunk, 0, Math.min(left, chunk.length));
            out.flush();
            if (blob.size() == BREAKS) {
                throw new IOException("the writer broke part-way");
            }
        }
    }
}
