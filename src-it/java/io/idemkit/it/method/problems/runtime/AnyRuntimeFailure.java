package io.idemkit.it.method.problems.runtime;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An application's catch-all for unchecked failures, with the default priority. */
@Provider
public class AnyRuntimeFailure implements ExceptionMapper<RuntimeException> {

    @Override
    public Response toResponse(RuntimeException e) {
        return Response.status(500).entity("application: " + e.getClass().getSimpleName()).build();
    }
}
