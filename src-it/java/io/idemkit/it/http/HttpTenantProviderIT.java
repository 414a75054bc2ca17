package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.http.tenantscope.TenantScopeApplication;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application's own {@code IdempotencyScopeProvider} bean, in {@code WEB-INF/classes}, scopes
 * every request (C5), as the README's tenant example does, on every runtime: two tenants who send
 * the same key and body both run, each replays only its own result, and a request the provider has
 * no scope for is refused without running. Under {@code scope-mode=strict}, which fails the
 * deployment when the library finds no provider (on Payara the library's bean archive cannot see
 * the application's beans by type, and it once did not).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpTenantProviderIT {

    private static final String BODY = "{\"sku\": \"book\", \"quantity\": 1}";

    @Deployment(testable = false)
    static WebArchive application() {
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, "http-tenant-provider.war")
                        .addPackage(TenantScopeApplication.class.getPackage())
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\nidemkit.scope-mode=strict\n"),
                                "META-INF/microprofile-config.properties");
        return LibraryJar.addTo(war);
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String key;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        key = "O-" + UUID.randomUUID();
    }

    @Test
    void twoTenantsWithOneKey_eachRunsOnce_andReplaysOnlyItsOwnResult() {
        int before = runs();

        Reply a = post("tenant-a");
        Reply b = post("tenant-b");
        Reply aAgain = post("tenant-a");
        Reply bAgain = post("tenant-b");

        assertThat(a.status()).as(a.text()).isEqualTo(201);
        assertThat(a.text()).contains("tenant-a");
        assertThat(b.status()).as(b.text()).isEqualTo(201);
        assertThat(b.text()).contains("tenant-b");
        assertThat(b.has("Idempotency-Replayed")).isFalse();
        assertThat(aAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(aAgain.text()).isEqualTo(a.text());
        assertThat(bAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(bAgain.text()).isEqualTo(b.text());
        assertThat(runs() - before).isEqualTo(2);
    }

    @Test
    void aRequestTheProviderHasNoScopeFor_isRefused_withoutRunning() {
        int before = runs();

        Reply noTenant = http.postJson("api/orders", BODY, "Idempotency-Key", key);

        assertThat(noTenant.status()).as(noTenant.text()).isEqualTo(500);
        assertThat(noTenant.text()).contains("urn:idemkit:identity-unavailable");
        assertThat(runs()).isEqualTo(before);
    }

    private Reply post(String tenant) {
        return http.postJson("api/orders", BODY, "Idempotency-Key", key, "X-Tenant", tenant);
    }

    private int runs() {
        return Integer.parseInt(http.get("api/orders/runs").text());
    }
}
