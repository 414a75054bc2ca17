package io.idemkit.it.method.problems.own;

import io.idemkit.IdempotencyInProgressException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An application's own answer to "in progress", with the default priority: it replaces ours. */
@Provider
public class OwnInProgress implements ExceptionMapper<IdempotencyInProgressException> {

    @Override
    public Response toResponse(IdempotencyInProgressException e) {
        return Response.status(429).header("Retry-After", "60").entity("application: busy").build();
    }
}
