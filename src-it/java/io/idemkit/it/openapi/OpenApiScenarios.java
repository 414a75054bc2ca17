package io.idemkit.it.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.openapi.app.ApplicationOpenApiFilter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The published contract (C6.12): the server's {@code /openapi} document describes idemkit's key
 * header, replay and expiry headers and problem responses on an {@code @Idempotent} operation, and
 * nothing on an unprotected one, also one whose path ends as a protected one's; a key parameter the
 * application gave by a {@code $ref} or on the path item is not added again; and a real OpenAPI
 * parser (swagger-parser) reads the served document without a message. The document is made by the
 * application's own filter, {@link ApplicationOpenApiFilter}, which calls idemkit's, as
 * docs/http.md says an application with a filter of its own does: what that filter said is kept.
 */
public abstract class OpenApiScenarios {

    /** The application's configuration line that names its filter. */
    public static final String FILTER_CONFIG =
            "mp.openapi.filter=" + ApplicationOpenApiFilter.class.getName() + "\n";

    /**
     * @return the server's root, under which {@code /openapi} is served
     */
    protected abstract URI serverRoot();

    private JsonObject openApi() throws Exception {
        try (var reader = Json.createReader(new StringReader(served()))) {
            return reader.readObject();
        }
    }

    private String served() throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(serverRoot().resolve("/openapi"))
                                        .header("Accept", "application/json")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /**
     * @param resourcePath the resource's path under the application's, such as {@code
     *     /documented/orders}
     * @return the POST of that path: the application path before it (Open Liberty, Payara Micro),
     *     or the context root and the application path (WildFly)
     */
    private static JsonObject post(JsonObject document, String resourcePath) {
        String path = "/api" + resourcePath;
        for (Map.Entry<String, jakarta.json.JsonValue> entry :
                document.getJsonObject("paths").entrySet()) {
            if (entry.getKey().equals(path)
                    || entry.getKey().matches("/[^/]+" + Pattern.quote(path))) {
                return entry.getValue().asJsonObject().getJsonObject("post");
            }
        }
        throw new AssertionError("no path " + path + " in " + document.get("paths"));
    }

    private static List<JsonObject> keyParameters(JsonObject operation) {
        if (!operation.containsKey("parameters")) {
            return List.of();
        }
        return operation.getJsonArray("parameters").stream()
                .map(jakarta.json.JsonValue::asJsonObject)
                .filter(p -> p.getString("name", "").equalsIgnoreCase("Idempotency-Key"))
                .toList();
    }

    @Test
    void theOpenApiDocument_describesTheKeyHeader_theReplayHeaders_andTheProblems()
            throws Exception {
        JsonObject orders = post(openApi(), "/documented/orders");

        assertThat(keyParameters(orders)).as(orders.toString()).hasSize(1);
        JsonObject key = keyParameters(orders).get(0);
        assertThat(key.getString("in")).isEqualTo("header");
        assertThat(key.getBoolean("required", false)).isFalse();
        assertThat(key.getJsonObject("schema").getInt("maxLength")).isEqualTo(255);

        JsonObject responses = orders.getJsonObject("responses");
        assertThat(responses.keySet()).contains("201", "400", "422", "423", "503");
        assertThat(responses.getJsonObject("201").getJsonObject("headers").keySet())
                .contains("Idempotency-Replayed", "Idempotency-Key-Expires");
        assertThat(responses.getJsonObject("400").getString("description"))
                .contains("urn:idemkit:missing-key");
        assertThat(responses.getJsonObject("423").getString("description"))
                .contains("urn:idemkit:in-progress");
        assertThat(responses.getJsonObject("503").getString("description"))
                .contains("urn:idemkit:storage-error");
        for (String status : List.of("423", "503")) {
            assertThat(responses.getJsonObject(status).getJsonObject("headers").keySet())
                    .as(status)
                    .contains("Retry-After");
            assertThat(responses.getJsonObject(status).getJsonObject("content").keySet())
                    .contains("application/problem+json");
        }
    }

    @Test
    void anUnprotectedOperation_isLeftAsItWas_alsoWhereItsPathEndsAsAProtectedOnes()
            throws Exception {
        JsonObject document = openApi();

        // /api/admin/documented/orders ends as the protected /api/documented/orders does.
        for (String path : List.of("/documented/notes", "/admin/documented/orders")) {
            JsonObject unprotected = post(document, path);
            assertThat(unprotected.containsKey("parameters")).as(path).isFalse();
            assertThat(unprotected.getJsonObject("responses").keySet())
                    .as(path)
                    .containsExactly("201");
            assertThat(
                            unprotected
                                    .getJsonObject("responses")
                                    .getJsonObject("201")
                                    .containsKey("headers"))
                    .as(path)
                    .isFalse();
        }
    }

    @Test
    void aKeyParameterTheApplicationGave_byRefOrOnThePath_isNotAddedAgain() throws Exception {
        JsonObject document = openApi();
        JsonObject referenced = post(document, "/documented/referenced");
        JsonObject pathLevel = post(document, "/documented/path-level");

        assertThat(referenced.getJsonArray("parameters")).as(referenced.toString()).hasSize(1);
        assertThat(referenced.getJsonArray("parameters").getJsonObject(0).getString("$ref"))
                .endsWith("/components/parameters/" + ApplicationOpenApiFilter.KEY_COMPONENT);
        assertThat(keyParameters(pathLevel)).as(pathLevel.toString()).isEmpty();
        for (JsonObject operation : List.of(referenced, pathLevel)) {
            assertThat(operation.getJsonObject("responses").keySet())
                    .contains("201", "400", "422", "423", "503");
        }
    }

    @Test
    void theServedDocument_isValidOpenApi_forARealParser() throws Exception {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(served(), null, options);

        // Only what the paths and components say is idemkit's (or this application's); the
        // runtimes' own top of the document draws messages of its own: WildFly writes an empty
        // info.license and externalDocs, Payara Micro a top-level "endpoints".
        assertThat(result.getMessages())
                .noneMatch(m -> m.contains("paths.") || m.contains("components."));
        assertThat(result.getOpenAPI().getPaths()).isNotEmpty();
    }

    @Test
    void theApplicationsOwnFilter_keepsWhatItSaid_andIdemkitAddsTheRest() throws Exception {
        JsonObject document = openApi();
        JsonObject orders = post(document, "/documented/orders");

        assertThat(document.getString("x-application-filter")).isEqualTo("ran");
        // Its own 422 wins over idemkit's (C6.12: what the document already says wins).
        assertThat(orders.getJsonObject("responses").getJsonObject("422").getString("description"))
                .isEqualTo(ApplicationOpenApiFilter.OWN_422);
        assertThat(orders.getJsonObject("responses").keySet()).contains("423", "503");
    }
}
