package io.idemkit.it.listed;

import io.idemkit.it.http.BlobWriter;
import io.idemkit.it.http.CallsResource;
import io.idemkit.it.http.ResourcesResource;
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
