package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.HttpScenarios;
import java.net.URI;
import java.util.UUID;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The HTTP surface on an Open Liberty whose application cannot see the Servlet API: {@code
 * liberty-config/server.xml} alone enables {@code restfulWS-3.1}, which does not make {@code
 * jakarta.servlet} visible to applications (the main IT server gets it from {@code appSecurity}).
 * The application must still start, and a synchronous request that ends without reaching the
 * response filter must still release its claim at once (C6.7), through the request-scoped fallback
 * rather than the servlet request's end; an asynchronous one keeps its key for the lease. A server
 * of its own, like {@link io.idemkit.it.http.HttpCrashAndRestartIT}.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "needs an Open Liberty whose features hide the Servlet API from applications;"
                        + " every other runtime (Payara Micro, WildFly) shows it to a WAR")
class HttpWithoutServletApiIT {

    private static final String BODY = "{\"name\": \"x\"}";
    private static final String BREAK = "X-Test-Break-Response";

    @Test
    void syncRequestThatEndsWithoutTheResponseFilter_releasesItsKey_asyncOneWaitsForTheLease()
            throws Exception {
        WebArchive war = HttpScenarios.memoryWar("http-no-servlet", "");
        try (LibertyServer server = new LibertyServer("idemkit-noservlet", war)) {
            String tag = UUID.randomUUID().toString();
            server.start(server.application(war).resolve("api/calls/" + tag));
            URI app = server.application(war);
            HttpCalls http = new HttpCalls(app);

            Reply stored = http.postKeyed("api/resources/quick", BODY, "stored-" + tag, tag);
            Reply replayed = http.postKeyed("api/resources/quick", BODY, "stored-" + tag, tag);
            assertThat(stored.status()).isEqualTo(201);
            assertThat(replayed.header("Idempotency-Replayed")).isEqualTo("true");

            // quick has waitTimeout=0s: a claim still held would answer 423 at once.
            String key = "broken-" + tag;
            assertThat(http.postKeyed("api/resources/quick", BODY, key, tag, BREAK, "1").status())
                    .isEqualTo(500);
            Reply retry = http.postKeyed("api/resources/quick", BODY, key, tag);
            assertThat(retry.status()).isEqualTo(201);
            assertThat(retry.has("Idempotency-Replayed")).isFalse();

            String asyncKey = "broken-async-" + tag;
            assertThat(
                            http.postKeyed(
                                            "api/resources/async",
                                            BODY,
                                            asyncKey,
                                            tag,
                                            HttpScenarios.DELAY,
                                            "300",
                                            BREAK,
                                            "1")
                                    .status())
                    .isEqualTo(500);
            // The fallback's known gap (docs/limits.md): a suspended resource whose request ended
            // without the response filter keeps its key until the lease runs out.
            Reply asyncRetry = http.postKeyed("api/resources/async", BODY, asyncKey, tag);
            assertThat(asyncRetry.status()).isEqualTo(423);

            assertThat(Integer.parseInt(http.get("api/calls/" + tag).text())).isEqualTo(4);
        }
    }
}
