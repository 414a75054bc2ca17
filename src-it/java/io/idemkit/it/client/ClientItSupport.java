package io.idemkit.it.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URL;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the client ITs share: their WAR (the library, the in-memory store, short back-offs), a tag
 * per test, a way to make the calling application call, and the server's count of runs.
 */
public abstract class ClientItSupport {

    public static WebArchive war(String name, UnaryOperator<WebArchive> classes) {
        return war(name, classes, "");
    }

    /**
     * @param config more lines of the application's {@code microprofile-config.properties}
     */
    public static WebArchive war(String name, UnaryOperator<WebArchive> classes, String config) {
        return LibraryJar.addTo(
                classes.apply(ShrinkWrap.create(WebArchive.class, name + ".war"))
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.client.retry.delay=100ms\n"
                                                + config),
                                "META-INF/microprofile-config.properties"));
    }

    @ArquillianResource URL base;

    HttpCalls http;
    String tag;

    /**
     * @return the application's root: Arquillian's, unless the test runs a server of its own
     */
    URL base() {
        return base;
    }

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base().toURI());
        tag = UUID.randomUUID().toString();
    }

    /**
     * @param path the driving resource's path under {@code api/}
     * @return what the calling application reported
     */
    JsonObject drive(String path) {
        Reply reply = http.postJson("api/" + path + "?tag=" + tag, "{}");
        assertThat(reply.status()).as(reply.text()).isEqualTo(200);
        try (var reader = Json.createReader(new StringReader(reply.text()))) {
            return reader.readObject();
        }
    }

    /**
     * @return how many times the server's resource {@code kind} ran for this test
     */
    int runs(String kind) {
        return Integer.parseInt(http.get("api/charges/runs/" + kind + "/" + tag).text());
    }

    /**
     * @return the milliseconds between the starts of one run of the server's resource {@code kind}
     *     for this test and the next
     */
    List<Long> gaps(String kind) {
        return http.get("api/charges/gaps/" + kind + "/" + tag)
                .text()
                .lines()
                .map(Long::valueOf)
                .toList();
    }

    /**
     * @return the {@code Idempotency-Key} each run of the server's resource {@code kind} was sent
     *     with for this test, in the order of the runs (the resources that note them: {@code
     *     flaky}, {@code busy}, {@code echo})
     */
    List<String> keys(String kind) {
        return http.get("api/charges/keys/" + kind + "/" + tag).text().lines().toList();
    }
}
