package io.idemkit.it.http.listed;

import io.idemkit.it.http.app.BlobWriter;
import io.idemkit.it.http.app.CallsResource;
import io.idemkit.it.http.app.ResourcesResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/**
 * An application that lists its classes, which turns JAX-RS scanning off: idemkit's feature is not
 * among them, and must be found all the same.
 */
@ApplicationPath("api")
public class ListedApplication extends Application {
    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(ResourcesResource.class, CallsResource.class, BlobWriter.class);
    }
}
