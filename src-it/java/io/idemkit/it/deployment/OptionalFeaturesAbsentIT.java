package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.HttpScenarios;
import java.net.URI;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the IT server without {@code mpHealth} and {@code mpTelemetry}: the library, whose jar holds
 * the health check and the OpenTelemetry beans, deploys and protects requests as usual, with the
 * admin API enabled too; there is simply no health endpoint.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = LIBERTY,
        because =
                "needs a server without MicroProfile Health and Telemetry; Payara Micro and"
                        + " WildFly's standalone-microprofile.xml always have them")
class OptionalFeaturesAbsentIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return HttpScenarios.war(
                "optional-absent",
                "idemkit.store=memory\nidemkit.admin.enabled=true\n"
                        + "idemkit.admin.role=idemkit-admin\n");
    }

    @ArquillianResource URL base;

    @Test
    void withoutHealthAndTelemetry_theLibraryDeploysAndReplays() throws Exception {
        HttpCalls http = new HttpCalls(base.toURI());
        String tag = UUID.randomUUID().toString();
        String key = "absent-" + tag;

        Reply first = post(http, key, tag);
        Reply second = post(http, key, tag);

        assertThat(first.status()).isEqualTo(201);
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(http.get("api/calls/" + tag).text()).isEqualTo("1");
        // The server really has no MicroProfile Health.
        assertThat(
                        new HttpCalls(base.toURI().resolve(URI.create("/")))
                                .get("health/ready")
                                .status())
                .isEqualTo(404);
        // The admin API does not need either feature: enabled, it answers (here: no caller).
        assertThat(http.get("api/idemkit/admin/records/" + "ab".repeat(32)).status())
                .isEqualTo(401);
    }

    private static Reply post(HttpCalls http, String key, String tag) {
        return http.postKeyed("api/resources", HttpScenarios.BODY_X, key, tag);
    }
}
