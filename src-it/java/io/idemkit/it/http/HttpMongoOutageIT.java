package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.TestPorts;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MongoDB server stops mid-run and comes back (C4.6, C6.4): fail-closed answers 503 with {@code
 * Retry-After} and runs nothing, fail-open runs the request unprotected, and both recover when the
 * server returns, without a restart.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because =
                "two deployments on Open Liberty servers of its own (LibertyServer); Arquillian's Payara Micro adapter starts one server per deployment, all on the one IT port")
class HttpMongoOutageIT {

    private static final String BODY = "{\"name\": \"x\"}";
    private static final int PORT = TestPorts.next();
    private static MongoServer mongo = ItMongo.start(PORT);

    private static WebArchive war(String name, String onStorageError) {
        return HttpScenarios.war(
                name,
                "idemkit.mongo.uri=mongodb://127.0.0.1:"
                        + PORT
                        + "\nidemkit.mongo.database=it_outage_"
                        + name.replace('-', '_')
                        + "\nidemkit.mongo.timeout=1s\nidemkit.on-storage-error="
                        + onStorageError
                        + "\n");
    }

    @Deployment(name = "closed", testable = false)
    static WebArchive failClosed() {
        return war("outage-closed", "fail-closed");
    }

    @Deployment(name = "open", testable = false)
    static WebArchive failOpen() {
        return war("outage-open", "fail-open");
    }

    @AfterAll
    static void stopMongo() {
        mongo.shutdownNow();
    }

    @ArquillianResource
    @OperateOnDeployment("closed")
    URL closed;

    @ArquillianResource
    @OperateOnDeployment("open")
    URL open;

    @Test
    void serverStopsMidRun_failClosedRefuses_failOpenRunsUnprotected_bothRecover()
            throws Exception {
        HttpCalls toClosed = new HttpCalls(closed.toURI());
        HttpCalls toOpen = new HttpCalls(open.toURI());
        String tag = UUID.randomUUID().toString();
        String key = "outage-" + tag;

        assertThat(post(toClosed, key, tag).status()).isEqualTo(201);
        assertThat(post(toOpen, key, tag).status()).isEqualTo(201);

        mongo.shutdownNow();
        Reply refused = post(toClosed, "down-" + key, tag);
        Reply unprotected = post(toOpen, "down-" + key, tag);
        Reply unprotectedAgain = post(toOpen, "down-" + key, tag);

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.text()).contains("\"type\":\"urn:idemkit:storage-error\"");
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isPositive();
        assertThat(calls(toClosed, tag)).isEqualTo(1);
        assertThat(unprotected.status()).isEqualTo(201);
        assertThat(unprotectedAgain.status()).isEqualTo(201);
        assertThat(unprotectedAgain.has("Idempotency-Replayed")).isFalse();
        assertThat(calls(toOpen, tag)).isEqualTo(3);

        mongo = ItMongo.start(PORT);
        Reply back = post(toClosed, "back-" + key, tag);
        Reply backAgain = post(toClosed, "back-" + key, tag);

        assertThat(back.status()).isEqualTo(201);
        assertThat(backAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls(toClosed, tag)).isEqualTo(2);
    }

    private static Reply post(HttpCalls http, String key, String tag) {
        return http.postJson("api/resources", BODY, "Idempotency-Key", key, HttpScenarios.TAG, tag);
    }

    private static int calls(HttpCalls http, String tag) {
        return Integer.parseInt(http.get("api/calls/" + tag).text());
    }
}
