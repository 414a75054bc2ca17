package io.idemkit.it.ops;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItRuntime;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.util.Optional;

/** Reads the server's MicroProfile Health endpoints, which live at the server's root. */
final class OpsHealth {

    /**
     * Why an {@code Ops*IT} class does not run in failsafe's first execution: it needs a server
     * with the optional features, which the {@code ops-integration-test} execution starts on
     * Liberty (WildFly's standalone-microprofile.xml always has them). So {@code
     * -Dit.test=OpsAdminIT}, which every execution sees, runs it once per runtime.
     */
    static final String ON_THE_OPS_SERVER =
            "runs where MicroProfile Health is: the ops-integration-test execution (Liberty with"
                    + " mpHealth and mpTelemetry), payara-integration-test and"
                    + " wildfly-integration-test";

    private final HttpCalls root;

    /**
     * @param application the application's URL; its server's root serves the health endpoints,
     *     unless the execution names another root in {@code idemkit.it.health-root} (WildFly serves
     *     them on its management interface)
     */
    OpsHealth(URL application) throws Exception {
        String healthRoot = System.getProperty("idemkit.it.health-root");
        this.root =
                new HttpCalls(
                        healthRoot != null
                                ? URI.create(healthRoot)
                                : application.toURI().resolve(URI.create("/")));
    }

    /** One health endpoint's answer: the HTTP status and the body. */
    record Answer(int status, JsonObject body) {

        String overall() {
            return body.getString("status");
        }

        /**
         * @return the named check, if the answer lists it
         */
        Optional<JsonObject> check(String name) {
            for (JsonValue check : body.getJsonArray("checks")) {
                JsonObject c = check.asJsonObject();
                if (name.equals(c.getString("name"))) {
                    return Optional.of(c);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * A whole-number data value of a check. The value is what counts, not its JSON type: Payara
     * Micro 6 writes every data value as a JSON string ({@code HealthCheckService} calls {@code
     * toString()} on each), where Liberty and SmallRye Health keep numbers as numbers. The check
     * itself hands a {@code long} to {@code withData} either way.
     */
    static long number(JsonObject data, String name) {
        JsonValue value = data.get(name);
        if (value instanceof JsonString text && ItRuntime.current().writesHealthDataAsStrings()) {
            return Long.parseLong(text.getString());
        }
        return data.getJsonNumber(name).longValue();
    }

    Answer ready() {
        return read("health/ready");
    }

    Answer live() {
        return read("health/live");
    }

    private Answer read(String path) {
        Reply reply = root.get(path);
        try (JsonReader reader = Json.createReader(new StringReader(reply.text()))) {
            return new Answer(reply.status(), reader.readObject());
        }
    }
}
