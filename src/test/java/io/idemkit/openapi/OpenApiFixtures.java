package io.idemkit.openapi;

import io.idemkit.config.HttpKeyPolicy;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Operation;

/** What the OpenAPI tests build their documents and endpoints from. */
final class OpenApiFixtures {

    private OpenApiFixtures() {}

    /**
     * @param resource a resource class
     * @param names methods of it that take one {@code String}
     * @return the endpoints of those among them that are idempotent, keyed by {@code
     *     Idempotency-Key}, read with the test's configuration
     */
    static List<OpenApiEndpoint> endpoints(Class<?> resource, String... names) throws Exception {
        List<OpenApiEndpoint> endpoints = new ArrayList<>();
        for (String name : names) {
            OpenApiEndpoint.of(
                            new ResourceMethod(resource, resource.getMethod(name, String.class)),
                            new HttpKeyPolicy("Idempotency-Key", List.of()),
                            ConfigProvider.getConfig())
                    .ifPresent(endpoints::add);
        }
        return endpoints;
    }

    /**
     * @return a POST operation as a generator writes it: one response, 201
     */
    static Operation post() {
        return OASFactory.createOperation()
                .responses(
                        OASFactory.createAPIResponses()
                                .addAPIResponse(
                                        "201",
                                        OASFactory.createAPIResponse().description("Created")));
    }
}
