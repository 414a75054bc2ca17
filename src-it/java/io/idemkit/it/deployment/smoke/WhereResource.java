package io.idemkit.it.deployment.smoke;

import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Tells where the application's class loader found a class of the library. */
@Path("where")
@RequestScoped
public class WhereResource {

    /**
     * @return the URL of the library's {@code IdempotencyStore} class file
     */
    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String libraryClassLocation() {
        return String.valueOf(
                WhereResource.class
                        .getClassLoader()
                        .getResource(
                                IdempotencyStore.class.getName().replace('.', '/') + ".class"));
    }
}
