package io.idemkit.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.Idempotent;
import io.idemkit.cdi.TestConfig;
import io.smallrye.openapi.runtime.io.Format;
import io.smallrye.openapi.runtime.io.OpenApiSerializer;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which operations of the document are the {@code @Idempotent} endpoints' (C6.12): their own path
 * under the prefix the runtime writes (the application path; on WildFly the context root before
 * it), never another resource's path that ends the same way; and a key parameter the document
 * already has through a {@code $ref} or on its path item is not added again.
 */
class OpenApiMatchingTest {

    @Path("orders")
    public static class Orders {
        @POST
        @Idempotent
        public Response place(String body) {
            return Response.status(201).build();
        }

        @POST
        @Path("{id: [0-9]+}/refunds")
        @Idempotent
        public Response refund(@PathParam("id") String id) {
            return Response.status(201).build();
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

    private static List<OpenApiEndpoint> endpoints(String... names) throws Exception {
        return OpenApiFixtures.endpoints(Orders.class, names);
    }

    private static OpenAPI document(String... paths) {
        OpenAPI api = OASFactory.createOpenAPI().openapi("3.0.3").paths(OASFactory.createPaths());
        api.info(OASFactory.createInfo().title("t").version("1"));
        for (String path : paths) {
            PathItem item = OASFactory.createPathItem().POST(OpenApiFixtures.post());
            for (String segment : OpenApiEndpoint.segments(path)) {
                if (segment.startsWith("{")) {
                    item.addParameter(
                            OASFactory.createParameter()
                                    .name(segment.substring(1, segment.length() - 1))
                                    .in(Parameter.In.PATH)
                                    .required(true)
                                    .schema(OASFactory.createSchema()));
                }
            }
            api.getPaths().addPathItem(path, item);
        }
        return api;
    }

    private static Operation operation(OpenAPI api, String path) {
        return api.getPaths().getPathItem(path).getPOST();
    }

    private static boolean decorated(OpenAPI api, String path) {
        return operation(api, path).getResponses().getAPIResponses().containsKey("503");
    }

    @Test
    void anotherResourcesPath_endingWithTheTemplate_isLeftAlone() throws Exception {
        OpenAPI api = document("/api/orders", "/api/admin/orders");

        int described = OpenApiDecoration.decorate(api, endpoints("place"), false, false);

        assertThat(described).isEqualTo(1);
        assertThat(decorated(api, "/api/orders")).isTrue();
        assertThat(decorated(api, "/api/admin/orders")).isFalse();
        assertThat(operation(api, "/api/admin/orders").getParameters()).isNull();
    }

    @Test
    void wildFlysContextRootBeforeTheApplicationPath_isAPrefixLikeAnother() throws Exception {
        OpenAPI api =
                document("/shop/api/admin/orders", "/shop/api/orders", "/shop/api/orders/{id}");

        OpenApiDecoration.decorate(api, endpoints("place"), false, false);

        assertThat(decorated(api, "/shop/api/orders")).isTrue();
        assertThat(decorated(api, "/shop/api/admin/orders")).isFalse();
        assertThat(decorated(api, "/shop/api/orders/{id}")).isFalse();
    }

    @Test
    void anEndpointMissingFromTheDocument_doesNotTakeAnotherResourcesPath() throws Exception {
        // "place" is not in the document (an application may hide an operation); the only path
        // ending with "orders" is another resource's, under the prefix the refund shows (/api).
        OpenAPI api = document("/api/admin/orders", "/api/orders/{id}/refunds");

        int described = OpenApiDecoration.decorate(api, endpoints("place", "refund"), false, false);

        assertThat(described).isEqualTo(1);
        assertThat(decorated(api, "/api/orders/{id}/refunds")).isTrue();
        assertThat(decorated(api, "/api/admin/orders")).isFalse();
    }

    @Test
    void aPathOutsideThePrefixTheOtherEndpointsShare_isLeftAlone() throws Exception {
        // A hand-written /orders beside the application's /api/orders: the refund's path says
        // the application's prefix is /api.
        OpenAPI api = document("/orders", "/api/orders", "/api/orders/{id}/refunds");

        int described = OpenApiDecoration.decorate(api, endpoints("place", "refund"), false, false);

        assertThat(described).isEqualTo(2);
        assertThat(decorated(api, "/api/orders")).isTrue();
        assertThat(decorated(api, "/api/orders/{id}/refunds")).isTrue();
        assertThat(decorated(api, "/orders")).isFalse();
    }

    @Test
    void aTemplateVariable_matchesTheDocumentsVariableOfAnotherName() throws Exception {
        OpenAPI api = document("/api/orders/{orderId}/refunds", "/api/orders/latest/refunds");

        OpenApiDecoration.decorate(api, endpoints("refund"), false, false);

        assertThat(decorated(api, "/api/orders/{orderId}/refunds")).isTrue();
        assertThat(decorated(api, "/api/orders/latest/refunds")).isFalse();
    }

    @Test
    void aKeyParameterGivenByRef_isNotAddedAgain() throws Exception {
        OpenAPI api = document("/api/orders");
        api.components(
                OASFactory.createComponents()
                        .addParameter(
                                "Key",
                                OASFactory.createParameter()
                                        .name("Idempotency-Key")
                                        .in(Parameter.In.HEADER)
                                        .schema(OASFactory.createSchema())
                                        .description("ours")));
        operation(api, "/api/orders").addParameter(OASFactory.createParameter().ref("Key"));

        OpenApiDecoration.decorate(api, endpoints("place"), false, false);

        assertThat(operation(api, "/api/orders").getParameters())
                .extracting(Parameter::getRef)
                .containsExactly("#/components/parameters/Key");
        assertThat(decorated(api, "/api/orders")).isTrue();
        assertThat(parse(api).getMessages()).isEmpty();
    }

    @Test
    void aRefToAnotherParameter_stillGetsTheKey() throws Exception {
        OpenAPI api = document("/api/orders");
        api.components(
                OASFactory.createComponents()
                        .addParameter(
                                "Tenant",
                                OASFactory.createParameter()
                                        .name("X-Tenant")
                                        .in(Parameter.In.HEADER)
                                        .schema(OASFactory.createSchema())));
        operation(api, "/api/orders").addParameter(OASFactory.createParameter().ref("Tenant"));

        OpenApiDecoration.decorate(api, endpoints("place"), false, false);

        assertThat(operation(api, "/api/orders").getParameters()).hasSize(2);
        assertThat(operation(api, "/api/orders").getParameters().get(1).getName())
                .isEqualTo("Idempotency-Key");
        assertThat(parse(api).getMessages()).isEmpty();
    }

    @Test
    void aKeyParameterOnThePathItem_isNotAddedToTheOperation() throws Exception {
        OpenAPI api = document("/api/orders");
        PathItem item = api.getPaths().getPathItem("/api/orders");
        item.addParameter(
                OASFactory.createParameter()
                        .name("idempotency-key")
                        .in(Parameter.In.HEADER)
                        .schema(OASFactory.createSchema()));

        OpenApiDecoration.decorate(api, endpoints("place"), false, false);

        assertThat(operation(api, "/api/orders").getParameters()).isNull();
        assertThat(decorated(api, "/api/orders")).isTrue();
        assertThat(parse(api).getMessages()).isEmpty();
    }

    @Test
    void aDecoratedDocument_isValidOpenApi() throws Exception {
        OpenAPI api = document("/api/orders", "/api/admin/orders", "/api/orders/{id}/refunds");

        OpenApiDecoration.decorate(api, endpoints("place", "refund"), true, true);

        SwaggerParseResult result = parse(api);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getPaths().get("/api/orders").getPost().getParameters())
                .hasSize(1);
    }

    /** Parses the document as a client would get it, with a real OpenAPI parser. */
    static SwaggerParseResult parse(OpenAPI api) throws Exception {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        return new OpenAPIV3Parser()
                .readContents(OpenApiSerializer.serialize(api, Format.JSON), null, options);
    }
}
