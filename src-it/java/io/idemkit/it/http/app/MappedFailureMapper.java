package io.idemkit.it.http.app;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Maps {@link MappedFailure} to 409, a status idemkit does not store by default. */
@Provider
public class MappedFailureMapper implements ExceptionMapper<MappedFailure> {
    @Override
    public Response toResponse(MappedFailure failure) {
        return Response.status(409).entity("mapped").build();
    }
}
