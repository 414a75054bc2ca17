package io.idemkit.it.http.gzip;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * An application's own gzip coding, as many applications have: responses compressed for clients
 * that accept gzip, requests sent with {@code Content-Encoding: gzip} decoded before the resource
 * reads them. Only the verbatim IT's application has it.
 */
@Provider
@Priority(Priorities.ENTITY_CODER)
public class GzipCoding implements WriterInterceptor, ReaderInterceptor {

    @Context HttpHeaders request;

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        List<String> accepted = request.getRequestHeader("Accept-Encoding");
        if (accepted == null || accepted.stream().noneMatch(v -> v.contains("gzip"))) {
            context.proceed();
            return;
        }
        context.getHeaders().add("Content-Encoding", "gzip");
        OutputStream plain = context.getOutputStream();
        GZIPOutputStream compressed = new GZIPOutputStream(plain);
        context.setOutputStream(compressed);
        try {
            context.proceed();
        } finally {
            compressed.finish();
            context.setOutputStream(plain);
        }
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if ("gzip".equalsIgnoreCase(context.getHeaders().getFirst("Content-Encoding"))) {
            context.setInputStream(new GZIPInputStream(context.getInputStream()));
        }
        return context.proceed();
    }
}
