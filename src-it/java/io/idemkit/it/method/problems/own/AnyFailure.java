package io.idemkit.it.method.problems.own;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An application's catch-all for every failure, with the default priority. */
@Provider
public class AnyFailure implements ExceptionMapper<Exception> {

    @Override
    public Response toResponse(Exception e) {
        return Response.status(500).entity("application: " + e.getClass().getSimpleName()).build();
    }
}
