package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.HttpCalls.Reply;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two real users send the same key (C5): by default the scope is the JAX-RS {@code SecurityContext}
 * principal, so their requests never share a record. The users are in Liberty's basic registry
 * (src-it/liberty) and in WildFly's ApplicationRealm (src-it/wildfly/configuration).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpTenantsIT {

    /** Asks for BASIC authentication on {@code /api/secure/*}, for any role. */
    static final String WEB_XML =
            "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                    + "<security-constraint><web-resource-collection>"
                    + "<web-resource-name>secure</web-resource-name>"
                    + "<url-pattern>/api/secure/*</url-pattern></web-resource-collection>"
                    + "<auth-constraint><role-name>**</role-name></auth-constraint>"
                    + "</security-constraint>"
                    + "<login-config><auth-method>BASIC</auth-method>"
                    + "<realm-name>idemkit-it</realm-name></login-config>"
                    + "</web-app>";

    @Deployment(testable = false)
    static WebArchive application() {
        // No scope-mode setting: the default warns about single-tenant use, and the principal
        // keeps these authenticated callers apart.
        return HttpScenarios.war("http-tenants", "").setWebXML(new StringAsset(WEB_XML));
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
    void cross_tenant_isolation() {
        String key = "K8-" + tag;
        Reply a = post("tenant-A", key);
        Reply b = post("tenant-B", key);
        Reply aAgain = post("tenant-A", key);

        assertThat(a.status()).isEqualTo(201);
        assertThat(a.text()).contains("tenant-A");
        assertThat(b.status()).isEqualTo(201);
        assertThat(b.text()).contains("tenant-B");
        assertThat(b.has("Idempotency-Replayed")).isFalse();
        assertThat(aAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(aAgain.text()).isEqualTo(a.text());
        assertThat(http.get("api/calls/" + tag).text()).isEqualTo("2");
    }

    @Test
    void unauthenticatedCaller_isRefusedByTheContainer_beforeIdemkitClaimsAnything() {
        Reply reply =
                http.postJson(
                        "api/secure/resources",
                        "{\"name\": \"x\"}",
                        "Idempotency-Key",
                        "K9-" + tag,
                        HttpScenarios.TAG,
                        tag);

        assertThat(reply.status()).isEqualTo(401);
        assertThat(http.get("api/calls/" + tag).text()).isEqualTo("0");
    }

    private Reply post(String user, String key) {
        String credentials =
                Base64.getEncoder()
                        .encodeToString(
                                (user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8));
        return http.postJson(
                "api/secure/resources",
                "{\"name\": \"x\"}",
                "Idempotency-Key",
                key,
                HttpScenarios.TAG,
                tag,
                "Authorization",
                "Basic " + credentials);
    }
}
