package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.openapi.ApplicationOpenApiFilter;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The client half and the published contract on Open Liberty with its MicroProfile features, on a
 * server of the test's own so that the shared IT servers keep their feature lists: {@code
 * mpRestClient-4.0}, {@code mpFaultTolerance-4.1} and {@code mpOpenAPI-4.0} added to the IT
 * configuration. It runs {@link ClientRestClientScenarios} (C14.3, C14.4, C14.5, C14.8) and reads
 * the application's {@code /openapi} document (C6.12), made by the application's own filter, which
 * calls idemkit's.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason =
                "an Open Liberty server of the test's own; WildFly and Payara Micro run the"
                        + " scenarios in ClientRestClientIT")
class ClientMicroProfileLibertyIT extends ClientRestClientScenarios {

    private static final String FEATURES =
            "  <featureManager>\n"
                    + "    <feature>mpRestClient-4.0</feature>\n"
                    + "    <feature>mpFaultTolerance-4.1</feature>\n"
                    + "    <feature>mpOpenAPI-4.0</feature>\n"
                    + "  </featureManager>";

    private static LibertyServer server;
    private static URI application;
    private static URI root;

    @BeforeAll
    static void start() throws Exception {
        WebArchive war =
                restWar(
                        "client-mp",
                        w -> w.addPackage(ApplicationOpenApiFilter.class.getPackage()),
                        "mp.openapi.filter=" + ApplicationOpenApiFilter.class.getName() + "\n");
        int port = LibertyServer.freePort();
        server = new LibertyServer("idemkit-client-mp", port, war, FEATURES);
        application = server.application(war);
        root = application.resolve("/");
        server.start(application.resolve("api/charges/runs/probe/probe"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    URL base() {
        try {
            return application.toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonObject openApi() throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(root.resolve("openapi"))
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
