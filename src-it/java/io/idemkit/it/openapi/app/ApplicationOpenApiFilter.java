package io.idemkit.it.openapi.app;

import io.idemkit.openapi.IdempotencyOpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;

/**
 * An application's own OpenAPI filter, the one {@code mp.openapi.filter} names: it describes its
 * own 422, and calls idemkit's filter, as docs/http.md says (C6.12). Its own description wins.
 */
public class ApplicationOpenApiFilter implements OASFilter {

    /** The description this filter gives to the orders operation's 422. */
    public static final String OWN_422 =
            "The order does not balance (the application's own words).";

    public ApplicationOpenApiFilter() {}

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        openApi.getPaths()
                .getPathItems()
                .forEach(
                        (path, item) -> {
                            Operation post = item.getPOST();
                            if (path.endsWith("/documented/orders") && post != null) {
                                post.getResponses()
                                        .addAPIResponse(
                                                "422",
                                                OASFactory.createAPIResponse()
                                                        .description(OWN_422));
                            }
                        });
        openApi.addExtension("x-application-filter", "ran");
        new IdempotencyOpenApiFilter().filterOpenAPI(openApi);
    }
}
