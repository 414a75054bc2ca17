package io.idemkit.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.idemkit.Idempotent;
import io.idemkit.cdi.TestConfig;
import io.idemkit.rest.IdempotencyOpenApiFilter;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The optional OpenAPI description of the HTTP surface (C6.1, C6.2, C6.4, C6.8), on SmallRye
 * OpenAPI's model: what it adds to the operations of {@code @Idempotent} methods, what it leaves
 * alone, and that it never throws.
 */
class OpenApiFilterTest {

    @Path("orders")
    public static class Orders {
        @POST
        @Idempotent
        public Response place(String body) {
            return Response.status(201).build();
        }

        @GET
        @Path("{id: [0-9]+}")
        public String get(@PathParam("id") String id) {
            return id;
        }

        @POST
        @Path("{id: [0-9]+}/refunds")
        @Idempotent(keyHeader = "X-Refund-Key")
        public Response refund(@PathParam("id") String id) {
            return Response.status(201).build();
        }

        @POST
        @Path("by-reference")
        @Idempotent(keyExtractor = Reference.class)
        public Response byReference(String body) {
            return Response.status(201).build();
        }
    }

    /** Takes the key from elsewhere than a header. */
    @ApplicationScoped
    public static class Reference implements IdempotencyKeyExtractor {
        @Override
        public Optional<String> keyOf(Request request) {
            return Optional.empty();
        }
    }

    private TestConfig config;

    @BeforeEach
    void configure() {
        config = TestConfig.of(Map.of());
    }

    @AfterEach
    void release() {
        config.close();
    }

    private static List<OpenApiEndpoint> endpoints() throws Exception {
        return OpenApiFixtures.endpoints(Orders.class, "place", "refund", "byReference");
    }

    static OpenAPI document() {
        return OASFactory.createOpenAPI()
                .paths(
                        OASFactory.createPaths()
                                .addPathItem(
                                        "/api/orders",
                                        OASFactory.createPathItem().POST(OpenApiFixtures.post()))
                                .addPathItem(
                                        "/api/orders/{id}",
                                        OASFactory.createPathItem()
                                                .GET(OASFactory.createOperation()))
                                .addPathItem(
                                        "/api/orders/{id}/refunds",
                                        OASFactory.createPathItem().POST(OpenApiFixtures.post()))
                                .addPathItem(
                                        "/api/orders/by-reference",
                                        OASFactory.createPathItem().POST(OpenApiFixtures.post()))
                                .addPathItem(
                                        "/api/invoices",
                                        OASFactory.createPathItem().POST(OpenApiFixtures.post())));
    }

    static Operation operation(OpenAPI api, String path, PathItem.HttpMethod method) {
        return api.getPaths().getPathItem(path).getOperations().get(method);
    }

    @Test
    void anIdempotentPost_getsItsKeyHeader_itsProblems_andItsSuccessHeaders() throws Exception {
        OpenAPI api = document();

        int described = OpenApiDecoration.decorate(api, endpoints(), false, false);

        assertThat(described).isEqualTo(3);
        Operation place = operation(api, "/api/orders", PathItem.HttpMethod.POST);
        Parameter key = place.getParameters().get(0);
        assertThat(key.getName()).isEqualTo("Idempotency-Key");
        assertThat(key.getIn()).isEqualTo(Parameter.In.HEADER);
        assertThat(key.getRequired()).isFalse();
        assertThat(key.getSchema().getMaxLength()).isEqualTo(255);
        assertThat(place.getResponses().getAPIResponses())
                .containsOnlyKeys("201", "400", "422", "423", "503");
        assertThat(place.getResponses().getAPIResponse("423").getHeaders())
                .containsKey("Retry-After");
        assertThat(
                        place.getResponses()
                                .getAPIResponse("422")
                                .getContent()
                                .getMediaType("application/problem+json")
                                .getSchema()
                                .getRef())
                .endsWith(OpenApiDecoration.PROBLEM_SCHEMA);
        assertThat(place.getResponses().getAPIResponse("201").getHeaders())
                .containsOnlyKeys("Idempotency-Replayed", "Idempotency-Key-Expires");
        assertThat(api.getComponents().getSchemas()).containsKey(OpenApiDecoration.PROBLEM_SCHEMA);
    }

    @Test
    void otherOperations_areLeftAlone() throws Exception {
        OpenAPI api = document();

        OpenApiDecoration.decorate(api, endpoints(), false, false);

        assertThat(operation(api, "/api/orders/{id}", PathItem.HttpMethod.GET).getParameters())
                .isNull();
        assertThat(
                        operation(api, "/api/invoices", PathItem.HttpMethod.POST)
                                .getResponses()
                                .getAPIResponses())
                .containsOnlyKeys("201");
    }

    @Test
    void aMethodsOwnKeyHeader_andATemplateWithARegex_areMatched() throws Exception {
        OpenAPI api = document();

        OpenApiDecoration.decorate(api, endpoints(), false, false);

        Operation refund = operation(api, "/api/orders/{id}/refunds", PathItem.HttpMethod.POST);
        assertThat(refund.getParameters())
                .extracting(Parameter::getName)
                .containsExactly("X-Refund-Key");
    }

    @Test
    void aKeyFromAnExtractor_getsNoHeaderParameter_andNo400() throws Exception {
        OpenAPI api = document();

        OpenApiDecoration.decorate(api, endpoints(), false, false);

        Operation byReference =
                operation(api, "/api/orders/by-reference", PathItem.HttpMethod.POST);
        assertThat(byReference.getParameters()).isNull();
        assertThat(byReference.getResponses().getAPIResponses())
                .containsOnlyKeys("201", "422", "423", "503");
    }

    @Test
    void theStripeDialect_answers409_andSpellsTheReplayHeaderItsWay() throws Exception {
        OpenAPI api = document();

        OpenApiDecoration.decorate(api, endpoints(), true, false);

        Operation place = operation(api, "/api/orders", PathItem.HttpMethod.POST);
        assertThat(place.getResponses().getAPIResponses())
                .containsOnlyKeys("201", "400", "409", "503");
        assertThat(place.getResponses().getAPIResponse("201").getHeaders())
                .containsKey("Idempotent-Replayed");
    }

    @Test
    void requireKey_makesTheHeaderRequired() throws Exception {
        OpenAPI api = document();

        OpenApiDecoration.decorate(api, endpoints(), false, true);

        assertThat(
                        operation(api, "/api/orders", PathItem.HttpMethod.POST)
                                .getParameters()
                                .get(0)
                                .getRequired())
                .isTrue();
    }

    @Test
    void whatTheDocumentAlreadySays_wins() throws Exception {
        OpenAPI api = document();
        Operation place = operation(api, "/api/orders", PathItem.HttpMethod.POST);
        place.addParameter(
                OASFactory.createParameter()
                        .name("idempotency-key")
                        .in(Parameter.In.HEADER)
                        .description("ours"));
        place.getResponses()
                .addAPIResponse("422", OASFactory.createAPIResponse().description("ours"));

        OpenApiDecoration.decorate(api, endpoints(), false, false);

        assertThat(place.getParameters())
                .extracting(Parameter::getDescription)
                .containsExactly("ours");
        assertThat(place.getResponses().getAPIResponse("422").getDescription()).isEqualTo("ours");
    }

    @Test
    void templateSegments_dropRegexesAndSlashes() {
        assertThat(OpenApiEndpoint.segments("/orders//{id: [0-9]{1,9}}/items/"))
                .containsExactly("orders", "{id}", "items");
        assertThat(OpenApiEndpoint.segments("")).isEmpty();
    }

    @Test
    void theFilter_withoutCdi_leavesTheDocumentAsItIs_andNeverThrows() {
        OpenAPI api = document();

        assertThatCode(() -> new IdempotencyOpenApiFilter().filterOpenAPI(api))
                .doesNotThrowAnyException();
        assertThat(operation(api, "/api/orders", PathItem.HttpMethod.POST).getParameters())
                .isNull();
    }
}
