package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.filterorder.ApiKeyFilter;
import io.idemkit.it.http.filterorder.FilterOrderApplication;
import java.io.IOException;
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
 * An application whose API-key filter has no {@code @Priority}, with idemkit's request filter
 * placed before it ({@code idemkit.http.request-filter-priority=2100}, the placement before 0.1.0)
 * so that it runs after idemkit's (C6.10), under {@code idemkit.scope-mode=strict}: the deployment
 * names the filter in a warning, and idemkit answers nothing, so a caller without the API key who
 * sends a victim's key gets neither the victim's result nor a 422 that tells it the key exists.
 * {@link HttpFilterOrderIT} is the default placement.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "the placement before 0.1.0, opt-in, is the same code on every runtime"
                        + " (LateRequestFilters, unit-tested with each runtime's way of listing"
                        + " providers); the default placement, HttpFilterOrderIT, runs on all"
                        + " three")
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpFilterOrderStrictIT {

    private static final String BODY = "{\"to\": \"acct-9\", \"amount\": 42}";

    @Deployment(testable = false)
    static WebArchive application() {
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, "http-filter-order-strict.war")
                        .addPackage(FilterOrderApplication.class.getPackage())
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=strict\n"
                                                + "idemkit.http.request-filter-priority=2100\n"),
                                "META-INF/microprofile-config.properties");
        return LibraryJar.addTo(war);
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String key;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        key = "T-" + UUID.randomUUID();
    }

    @Test
    void strictWithALateAuthenticationFilter_answersNobody_andTheFilterIsNamed()
            throws IOException {
        Reply victim = post(BODY, ApiKeyFilter.HEADER, ApiKeyFilter.KEY);
        Reply sameBody = post(BODY);
        Reply otherBody = post("{\"to\": \"acct-1\", \"amount\": 1}");

        assertThat(victim.status()).as(victim.text()).isEqualTo(500);
        for (Reply attacker : new Reply[] {sameBody, otherBody}) {
            assertThat(attacker.status()).as(attacker.text()).isEqualTo(500);
            assertThat(attacker.text())
                    .contains("urn:idemkit:filter-order")
                    .doesNotContain("transfer")
                    .doesNotContain(ApiKeyFilter.class.getSimpleName());
            assertThat(attacker.has("Idempotency-Replayed")).isFalse();
        }
        Reply runs = http.get("api/transfers/runs", ApiKeyFilter.HEADER, ApiKeyFilter.KEY);
        assertThat(runs.text()).isEqualTo("0");
        assertThat(http.get("api/transfers/runs").status()).isEqualTo(401);
        assertThat(HttpScenarios.suiteServerLog(ApiKeyFilter.class.getName() + " (priority 5000)"))
                .isPositive();
        // The runtime's own request filters are not the application's (RESTEasy's SSE one).
        assertThat(HttpScenarios.suiteServerLog("SseEventSinkInterceptor (priority")).isZero();
    }

    private Reply post(String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Idempotency-Key";
        all[1] = key;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return http.postJson("api/transfers", body, all);
    }
}
