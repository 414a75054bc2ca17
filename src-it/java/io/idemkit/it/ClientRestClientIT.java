package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import io.idemkit.it.client.ChargesResource;
import io.idemkit.it.client.ClientApplication;
import io.idemkit.it.restclient.RestCheckout;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client half through a MicroProfile Rest Client (C14.4, C14.5): the feature registered with
 * {@code @RegisterProvider}, a method that returns an entity, so that a 503 arrives as a {@code
 * WebApplicationException} and a replay is seen only through {@code RetryOutcome}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@DisabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason =
                "the Open Liberty IT servers have no mpRestClient feature (their feature lists are"
                        + " shared by every IT); WildFly's microprofile profile and Payara Micro"
                        + " have a Rest Client")
class ClientRestClientIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "client-rest.war")
                        .addClasses(ClientApplication.class, ChargesResource.class)
                        .addPackage(RestCheckout.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.client.retry.delay=100ms\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String tag;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
    }

    private JsonObject drive(String kind) {
        Reply reply = http.postJson("api/rest-drive/" + kind + "?tag=" + tag, "{}");
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        try (var reader = Json.createReader(new StringReader(reply.text()))) {
            return reader.readObject();
        }
    }

    private int runs(String kind) {
        return Integer.parseInt(http.get("api/charges/runs/" + kind + "/" + tag).text());
    }

    @Test
    void a503_thrownAsAnException_isRetried_withTheSameKey() {
        JsonObject result = drive("flaky");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(runs("flaky")).isEqualTo(2);
    }

    @Test
    void aReadTimeout_isRetried_andTheReplayIsReported() {
        JsonObject result = drive("slow");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("slow")).isEqualTo(1);
    }

    @Test
    void a422_reachesTheCaller_unretried() {
        JsonObject result = drive("refused");

        assertThat(result.getInt("status")).isEqualTo(422);
        assertThat(runs("refused")).isEqualTo(1);
    }
}
