package io.idemkit.it.openapi.app;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * Operations for the OpenAPI document (C6.12): one protected by {@code @Idempotent}, one not, and
 * two protected ones whose key parameter the application's filter describes itself ({@link
 * ApplicationOpenApiFilter}): by a {@code $ref}, and on the path item.
 */
@Path("documented")
@RequestScoped
public class DocumentedResource {

    public DocumentedResource() {}

    @POST
    @Path("orders")
    @Idempotent
    @APIResponse(responseCode = "201", description = "The order was placed.")
    public Response placeOrder() {
        return Response.status(201).build();
    }

    @POST
    @Path("referenced")
    @Idempotent
    @APIResponse(responseCode = "201", description = "The order was placed.")
    public Response placeReferenced() {
        return Response.status(201).build();
    }

    @POST
    @Path("path-level")
    @Idempotent
    @APIResponse(responseCode = "201", description = "The order was placed.")
    public Response placePathLevel() {
        return Response.status(201).build();
    }

    @POST
    @Path("notes")
    @APIResponse(responseCode = "201", description = "The note was kept.")
    public Response keepNote() {
        return Response.status(201).build();
    }
}
