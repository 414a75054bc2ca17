package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.http.app.HttpApplication;
import io.idemkit.it.http.listed.ListedApplication;
import java.net.URL;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application whose {@code getClasses()} lists its resources (so nothing is scanned) is
 * protected all the same, here in the Stripe dialect with a required key (C6.1, C6.4). A request
 * without the required key (the reference's missing-key-when-required) is in every store's HTTP
 * scenarios.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpListedApplicationIT {

    private static final String BODY_X = "{\"name\": \"x\"}";

    @Deployment(testable = false)
    static WebArchive application() {
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, "http-listed.war")
                        .addPackage(ListedApplication.class.getPackage())
                        .addPackage(HttpApplication.class.getPackage())
                        .deleteClass(HttpApplication.class)
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.compat-mode=stripe\n"
                                                + "idemkit.require-key=true\n"),
                                "META-INF/microprofile-config.properties");
        return LibraryJar.addTo(war);
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String tag;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
    }

    @Test
    void listedApplication_isProtected_andReplaysInTheStripeDialect() {
        Reply first = post("api/resources", BODY_X, "L1");
        Reply second = post("api/resources", BODY_X, "L1");

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.has("Idempotency-Replayed")).isFalse();
        assertThat(calls()).isEqualTo(1);
    }

    @Test
    void payloadMismatch_is409InTheStripeDialect() {
        post("api/resources", BODY_X, "L2");
        Reply mismatch = post("api/resources", "{\"name\": \"y\"}", "L2");

        assertThat(mismatch.status()).isEqualTo(409);
        assertThat(mismatch.text()).contains("urn:idemkit:payload-mismatch");
    }

    @Test
    void inProgress_is409InTheStripeDialect() throws Exception {
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () ->
                                post(
                                        "api/resources/impatient",
                                        BODY_X,
                                        "L3",
                                        "X-Test-Delay-Ms",
                                        "2000"));
        Awaitility.await().until(() -> calls() == 1);
        Reply duplicate = post("api/resources/impatient", BODY_X, "L3");

        assertThat(duplicate.status()).isEqualTo(409);
        assertThat(duplicate.text()).contains("urn:idemkit:in-progress");
        assertThat(duplicate.header("Retry-After")).isNotNull();
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
    }

    private Reply post(String path, String body, String key, String... more) {
        String[] headers = new String[4 + more.length];
        headers[0] = "Idempotency-Key";
        headers[1] = key + "-" + tag;
        headers[2] = HttpScenarios.TAG;
        headers[3] = tag;
        System.arraycopy(more, 0, headers, 4, more.length);
        return http.postJson(path, body, headers);
    }

    private int calls() {
        return Integer.parseInt(http.get("api/calls/" + tag).text());
    }
}
