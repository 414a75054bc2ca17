package io.idemkit.cdi;

import io.idemkit.openapi.IdempotentResourceMethods;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;

/**
 * Hands the optional OpenAPI filter the {@code @Idempotent} resource methods the deployment found.
 */
@ApplicationScoped
public class OpenApiProducer {

    /** {@code @Dependent}: a record, immutable, which can have no client proxy. */
    @Produces
    @Dependent
    IdempotentResourceMethods resources(IdemkitExtension extension) {
        return extension.idempotentResources();
    }
}
