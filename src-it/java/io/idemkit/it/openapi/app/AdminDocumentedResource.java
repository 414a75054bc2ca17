package io.idemkit.it.openapi.app;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * An unprotected operation whose path ends as {@link DocumentedResource}'s protected one does
 * ({@code /api/admin/documented/orders} against {@code /api/documented/orders}): the OpenAPI
 * description leaves it as it was (C6.12).
 */
@Path("admin/documented")
@RequestScoped
public class AdminDocumentedResource {

    public AdminDocumentedResource() {}

    @POST
    @Path("orders")
    @APIResponse(responseCode = "201", description = "The order was placed by an administrator.")
    public Response placeAdminOrder() {
        return Response.status(201).build();
    }
}
