package io.idemkit.rest;

import io.idemkit.openapi.OpenApiFiltering;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * Describes idemkit's HTTP surface in the application's OpenAPI document (C6.12), when the
 * application names it: {@code mp.openapi.filter=io.idemkit.rest.IdempotencyOpenApiFilter} (an
 * application with a filter of its own calls {@code new
 * IdempotencyOpenApiFilter().filterOpenAPI(openApi)} from it). Each operation of an
 * {@code @Idempotent} resource method gets its key header parameter, the problem responses the HTTP
 * surface may answer (400, 422 and 423, or 409 in the Stripe dialect, and 503) and the replay and
 * expiry headers of its successes, where the document does not describe them already.
 *
 * <p>It never fails a deployment: where the deployment's findings cannot be had (the runtime builds
 * the document before CDI has started) it logs one WARNING and leaves the document as it is.
 * Thread-safe.
 */
public class IdempotencyOpenApiFilter implements OASFilter {

    /** For the runtime, which creates it by reflection. */
    public IdempotencyOpenApiFilter() {}

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        OpenApiFiltering.filter(openApi);
    }
}
