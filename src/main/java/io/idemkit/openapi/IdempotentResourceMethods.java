package io.idemkit.openapi;

import java.util.List;

/**
 * Every {@code @Idempotent} JAX-RS resource method of the application's bean archives, found at
 * deployment; what the OpenAPI filter describes.
 *
 * @param all the resource methods, in no particular order
 */
public record IdempotentResourceMethods(List<ResourceMethod> all) {

    /** Copies the list. */
    public IdempotentResourceMethods {
        all = List.copyOf(all);
    }
}
