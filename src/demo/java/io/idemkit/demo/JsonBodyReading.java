package io.idemkit.demo;

import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;

/**
 * Tells a request body that is not JSON for its type (malformed, or a string where a number
 * belongs) from every other failure, where the JSON-B reader fails and nowhere else: around the
 * reading of a request entity. Writing a response, or the demo's own code, never passes here, so a
 * server bug cannot become a 400.
 *
 * <p>What the runtimes' JSON-B readers throw for such a body (measured with this demo): Open
 * Liberty's own provider a {@link JsonbException}; RESTEasy on WildFly a {@link
 * ProcessingException} ({@code RESTEASY008200}) caused by one; Jersey on Payara a {@link
 * ProcessingException} caused by one. Anything else passes through unchanged.
 */
@Provider
public class JsonBodyReading implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        try {
            return context.proceed();
        } catch (JsonbException e) {
            throw new UnreadableJsonBody(e);
        } catch (ProcessingException e) {
            if (e.getCause() instanceof JsonbException) {
                throw new UnreadableJsonBody(e);
            }
            throw e;
        }
    }
}
