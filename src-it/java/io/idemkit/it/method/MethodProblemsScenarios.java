package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.method.app.Executions;
import io.idemkit.it.method.problems.ProblemsApplication;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A JAX-RS resource calls {@code @Idempotent} beans and lets the library's exceptions escape
 * (C7.5). The application has a catch-all mapper of its own, which must not take those exceptions
 * from the library's mappers of nearer types; each subclass adds a different catch-all.
 */
abstract class MethodProblemsScenarios {

    @ArquillianResource private URL base;

    private final Client client = ClientBuilder.newClient();

    @AfterEach
    void close() {
        client.close();
    }

    /** The application with {@code extra}'s package: the subclass's own mappers. */
    static WebArchive application(String name, Class<?> extra) {
        return application(name, extra, "idemkit.store=memory\n");
    }

    /** The same, with {@code config} for the store. */
    static WebArchive application(String name, Class<?> extra, String config) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(ProblemsApplication.class.getPackage())
                        .addPackage(extra.getPackage())
                        .addClass(Executions.class)
                        .addAsResource(
                                new StringAsset(config + "idemkit.scope-mode=single-tenant\n"),
                                "META-INF/microprofile-config.properties"));
    }

    static String key() {
        return UUID.randomUUID().toString();
    }

    record Reply(int status, String type, String retryAfter, String body) {
        JsonObject json() {
            return Json.createReader(new StringReader(body)).readObject();
        }
    }

    Reply post(String path, String key, Object amount) throws Exception {
        var target = client.target(base.toURI().resolve("api/problems/" + path));
        if (key != null) {
            target = target.queryParam("key", key);
        }
        if (amount != null) {
            target = target.queryParam("amount", amount);
        }
        try (Response r = target.request().post(Entity.text(""))) {
            return new Reply(
                    r.getStatus(),
                    r.getMediaType() == null ? null : r.getMediaType().toString(),
                    r.getHeaderString("Retry-After"),
                    r.readEntity(String.class));
        }
    }

    /**
     * Starts a booking, and once it runs, books again with the same key: the duplicate gives up
     * after its 200 ms wait timeout (C4.3) and gets the in-progress answer, which is returned.
     */
    Reply duplicateOfARunningBooking() throws Exception {
        String key = key();
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return post("book", key, null);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> count("slow:" + key) == 1);
        Reply duplicate = post("book", key, null);
        assertThat(first.get(30, TimeUnit.SECONDS).body()).isEqualTo("booked-1");
        assertThat(count("slow:" + key)).isEqualTo(1);
        return duplicate;
    }

    private int count(String operation) throws Exception {
        return client.target(base.toURI().resolve("api/problems/count"))
                .queryParam("operation", operation)
                .request()
                .get(Integer.class);
    }

    @Test
    void sameKeyWithAnotherAmount_isTheLibrarysPayloadMismatchNotTheCatchAll() throws Exception {
        String key = key();
        assertThat(post("charge", key, 10).body()).isEqualTo("charged-10");

        Reply mismatch = post("charge", key, 20);

        assertThat(mismatch.status()).as("%s", mismatch).isEqualTo(422);
        assertThat(mismatch.type()).startsWith("application/problem+json");
        assertThat(mismatch.json().getString("type")).isEqualTo("urn:idemkit:payload-mismatch");
        assertThat(mismatch.json().getString("detail")).contains("use a new key");
        assertThat(mismatch.body()).doesNotContain(key).doesNotContain("at io.idemkit");
    }

    @Test
    void anotherFailure_stillReachesTheApplicationsCatchAll() throws Exception {
        Reply failure = post("fail", null, null);

        assertThat(failure.status()).as("%s", failure).isEqualTo(500);
        assertThat(failure.body()).isEqualTo("application: IllegalStateException");
    }
}
