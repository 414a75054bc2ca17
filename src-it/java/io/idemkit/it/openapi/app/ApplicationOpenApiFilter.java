package io.idemkit.it.openapi.app;

import io.idemkit.rest.IdempotencyOpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * An application's own OpenAPI filter, the one {@code mp.openapi.filter} names: it describes its
 * own 422 and the key header of two operations (one by a {@code $ref} to the components, one on the
 * path item), and calls idemkit's filter, as docs/http.md says (C6.12). Its own description wins.
 */
public class ApplicationOpenApiFilter implements OASFilter {

    /** The description this filter gives to the orders operation's 422. */
    public static final String OWN_422 =
            "The order does not balance (the application's own words).";

    /** The name of the key parameter this filter puts in the components. */
    public static final String KEY_COMPONENT = "IdempotencyKey";

    public ApplicationOpenApiFilter() {}

    @Override
    public void filterOpenAPI(OpenAPI openApi) {
        if (openApi.getComponents() == null) {
            openApi.setComponents(OASFactory.createComponents());
        }
        openApi.getComponents().addParameter(KEY_COMPONENT, key("The application's key."));
        openApi.getPaths()
                .getPathItems()
                .forEach(
                        (path, item) -> {
                            Operation post = item.getPOST();
                            if (post == null) {
                                return;
                            }
                            if (path.endsWith("/api/documented/orders")) {
                                post.getResponses()
                                        .addAPIResponse(
                                                "422",
                                                OASFactory.createAPIResponse()
                                                        .description(OWN_422));
                            } else if (path.endsWith("/api/documented/referenced")) {
                                post.addParameter(OASFactory.createParameter().ref(KEY_COMPONENT));
                            } else if (path.endsWith("/api/documented/path-level")) {
                                item.addParameter(key("The key, for every operation here."));
                            }
                        });
        openApi.addExtension("x-application-filter", "ran");
        new IdempotencyOpenApiFilter().filterOpenAPI(openApi);
    }

    private static Parameter key(String description) {
        return OASFactory.createParameter()
                .name("Idempotency-Key")
                .in(Parameter.In.HEADER)
                .description(description)
                .schema(OASFactory.createSchema().maxLength(255));
    }
}
