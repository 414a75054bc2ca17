package io.idemkit.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.cdi.TestDeployment;
import io.idemkit.rest.IdempotencyOpenApiFilter;
import io.idemkit.testsupport.RunningCdi;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI filter as a runtime calls it, on Weld: it finds the {@code @Idempotent} resource
 * methods the deployment saw, and the configuration the deployment validated.
 */
class OpenApiFilterWeldTest {

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void theFilter_describesTheResourceMethodsTheDeploymentFound_inTheConfiguredDialect() {
        deployment
                .set("idemkit.store", "memory")
                .set("idemkit.scope-mode", "single-tenant")
                .set("idemkit.compat-mode", "stripe")
                .set("idemkit.key-header", "X-Key");
        RunningCdi.install();
        deployment.start(OpenApiFilterTest.Orders.class, OpenApiFilterTest.Reference.class);
        OpenAPI api = OpenApiFilterTest.document();

        new IdempotencyOpenApiFilter().filterOpenAPI(api);

        var place = OpenApiFilterTest.operation(api, "/api/orders", PathItem.HttpMethod.POST);
        assertThat(place.getParameters()).extracting(Parameter::getName).containsExactly("X-Key");
        assertThat(place.getResponses().getAPIResponses()).containsKeys("409", "503");
        assertThat(
                        OpenApiFilterTest.operation(api, "/api/invoices", PathItem.HttpMethod.POST)
                                .getParameters())
                .isNull();
    }
}
