package io.idemkit.it.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.openapi.app.ApplicationOpenApiFilter;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The published contract (C6.12): the server's {@code /openapi} document describes idemkit's key
 * header, replay and expiry headers and problem responses on an {@code @Idempotent} operation, and
 * nothing on an unprotected one. The document is made by the application's own filter, {@link
 * ApplicationOpenApiFilter}, which calls idemkit's, as docs/http.md says an application with a
 * filter of its own does: what that filter said is kept.
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
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(serverRoot().resolve("/openapi"))
                                        .header("Accept", "application/json")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    private static JsonObject post(JsonObject document, String pathEnd) {
        for (Map.Entry<String, jakarta.json.JsonValue> path :
                document.getJsonObject("paths").entrySet()) {
            if (path.getKey().endsWith(pathEnd)) {
                return path.getValue().asJsonObject().getJsonObject("post");
            }
        }
        throw new AssertionError("no path ending " + pathEnd + " in " + document.get("paths"));
    }

    @Test
    void theOpenApiDocument_describesTheKeyHeader_theReplayHeaders_andTheProblems()
            throws Exception {
        JsonObject orders = post(openApi(), "/documented/orders");

        JsonObject key =
                orders.getJsonArray("parameters").stream()
                        .map(jakarta.json.JsonValue::asJsonObject)
                        .filter(p -> p.getString("name").equals("Idempotency-Key"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no key parameter: " + orders));
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
    void anUnprotectedOperation_isLeftAsItWas() throws Exception {
        JsonObject notes = post(openApi(), "/documented/notes");

        assertThat(notes.containsKey("parameters")).isFalse();
        assertThat(notes.getJsonObject("responses").keySet()).containsExactly("201");
        assertThat(notes.getJsonObject("responses").getJsonObject("201").containsKey("headers"))
                .isFalse();
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
